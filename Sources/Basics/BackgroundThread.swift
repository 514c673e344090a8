#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A thread of its own for work that blocks for long (a curl multi loop, a server's accept loop, an exit timer):
/// such work must stay off the Swift cooperative pool and off dispatch's shared queues, which the program's tasks use.
public enum BackgroundThread {
    /// Starts `body` on a new detached thread named `name` (cut to 15 bytes, the kernel's limit).
    /// - Returns: false when the system cannot create a thread (the body never runs).
    @discardableResult
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let status = pthread_create(&thread, &attributes, { context in
            let body = Unmanaged<BackgroundThread.Body>.fromOpaque(context!).takeRetainedValue()
            nameCurrentThread(body.name)
            body.run()
            return nil
        }, box)
        if status != 0 {
            Unmanaged<Body>.fromOpaque(box).release()
            return false
        }
        return true
    }

    /// Sleeps the calling thread (never a task's: tasks use `Task.sleep`).
    public static func sleep(milliseconds: Int) {
        var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }

    fileprivate final class Body: Sendable {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}

/// Names the calling thread for ps, top and debuggers (pthread_setname_np needs _GNU_SOURCE, which Swift's
/// Glibc module does not set; the kernel takes the name from this file).
private func nameCurrentThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}
