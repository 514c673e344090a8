import Basics
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// How much memory the process (or its cgroup) uses, against the most it should: one look.
public struct MemoryReading: Sendable, Equatable {
    /// Bytes in use.
    public var used: Int
    /// Bytes at which the memory caches are shed.
    public var limit: Int

    public init(used: Int, limit: Int) {
        self.used = used
        self.limit = limit
    }

    public var isUnderPressure: Bool { used >= limit }
}

/// Where the pipeline reads memory pressure from, on Linux.
///
/// - With a limit the user set (`--memory-limit`, in MB): the process's resident memory (`/proc/self/statm`)
///   against it.
/// - Else, in a cgroup v2 with a `memory.max`: the cgroup's working set (`memory.current` less the page cache it
///   can drop at once, `inactive_file` in `memory.stat`) against 90 % of `memory.max`, so the caches go before the
///   kernel reclaims or kills; and any new `high` or `max` event in `memory.events` counts as pressure too.
/// - Else: resident memory against a quarter of the machine's memory.
///
/// Reading is a few small files from /proc or /sys, which never block on a disk.
public final class MemoryGauge: Sendable {
    /// What is watched, in words: "resident memory against 64 MB".
    public let description: String
    private let readNow: @Sendable () -> MemoryReading?

    /// A gauge that reads with `read`: for tests, which inject readings.
    public init(description: String, read: @escaping @Sendable () -> MemoryReading?) {
        self.description = description
        readNow = read
    }

    /// The reading now; nil when the files cannot be read (then nothing is shed).
    public func read() -> MemoryReading? { readNow() }

    /// The gauge for this process, as the type's comment says.
    ///
    /// - Parameters:
    ///   - limitMB: the user's limit, if any.
    ///   - root: where /proc and /sys are: a test points it at a folder of files laid out the same way.
    public static func live(limitMB: Int? = nil, root: String = "") -> MemoryGauge {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let rss: @Sendable () -> Int? = {
            // statm: size, resident, shared, … in pages.
            guard let text = readSmallFile(root + "/proc/self/statm") else { return nil }
            let fields = text.split(separator: " ")
            return fields.count > 1 ? Int(fields[1]).map { $0 * pageSize } : nil
        }
        if let megabytes = limitMB, megabytes > 0 {
            let limit = megabytes << 20
            return MemoryGauge(description: "resident memory against \(megabytes) MB") {
                rss().map { MemoryReading(used: $0, limit: limit) }
            }
        }
        if let cgroup = cgroupV2Directory(root: root),
           let maxBytes = readSmallFile(cgroup + "/memory.max").flatMap(integer) {
            let limit = maxBytes / 10 * 9
            let events = EventCount(readSmallFile(cgroup + "/memory.events"))
            return MemoryGauge(description: "the cgroup's working set against 90 % of its \(maxBytes >> 20) MB") {
                guard let current = readSmallFile(cgroup + "/memory.current").flatMap(integer) else { return nil }
                let inactiveFile = statField("inactive_file", in: readSmallFile(cgroup + "/memory.stat")) ?? 0
                let used = max(0, current - inactiveFile)
                // A new reclaim (high) or limit (max) event says the kernel is struggling, whatever the numbers.
                let struggling = events.advanced(to: readSmallFile(cgroup + "/memory.events"))
                return MemoryReading(used: struggling ? max(used, limit) : used, limit: limit)
            }
        }
        let physical = Int(sysconf(Int32(_SC_PHYS_PAGES))) * pageSize
        let limit = max(256 << 20, physical / 4)
        return MemoryGauge(description: "resident memory against \(limit >> 20) MB (a quarter of this machine's)") {
            rss().map { MemoryReading(used: $0, limit: limit) }
        }
    }

    /// The process's cgroup v2 folder: from the "0::/path" line of /proc/self/cgroup, under /sys/fs/cgroup;
    /// nil on a cgroup v1 system or without the memory controller.
    static func cgroupV2Directory(root: String) -> String? {
        guard let text = readSmallFile(root + "/proc/self/cgroup") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("0::") {
            let path = line.dropFirst(3)
            // A path from the kernel, but never followed outside the cgroup file system.
            guard path.hasPrefix("/"), !path.split(separator: "/").contains("..") else { return nil }
            let directory = root + "/sys/fs/cgroup" + (path == "/" ? "" : path)
            return FileManager.default.fileExists(atPath: directory + "/memory.current") ? directory : nil
        }
        return nil
    }

    /// A "name value" line's value in a flat-keyed file such as memory.stat or memory.events.
    static func statField(_ name: String, in text: String?) -> Int? {
        guard let text else { return nil }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0] == name { return Int(fields[1]) }
        }
        return nil
    }

    /// The `high` and `max` events of memory.events seen so far: which readings saw new ones.
    private final class EventCount: Sendable {
        private let seen: Mutex<Int>

        init(_ text: String?) {
            seen = Mutex(Self.total(text))
        }

        /// Whether `text` counts more events than the last reading did.
        func advanced(to text: String?) -> Bool {
            let now = Self.total(text)
            return seen.withLock { seen in
                defer { seen = max(seen, now) }
                return now > seen
            }
        }

        private static func total(_ text: String?) -> Int {
            (statField("high", in: text) ?? 0) + (statField("max", in: text) ?? 0)
        }
    }
}

/// A file's text as one integer ("max" for no limit is not one).
private func integer(_ text: String) -> Int? {
    Int(text.trimmingSpacesAndLineEnds())
}

/// The text of a small pseudo-file (/proc, /sys): at most 64 KB, read with one `read` loop; nil if it cannot be
/// opened.
private func readSmallFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 65536 {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { break }
        bytes += buffer[..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
