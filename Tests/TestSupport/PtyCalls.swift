#if canImport(Glibc)
import Glibc
#endif

/// The pty calls Swift's Glibc module does not declare (they need `_XOPEN_SOURCE`), looked up in the C library.
public enum PtyCalls {
    public typealias IntCall = @convention(c) (Int32) -> Int32
    public typealias NameCall = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    private static func symbol<T>(_ name: String, as type: T.Type) -> T {
        guard let pointer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            fatalError("the C library has no \(name)")
        }
        return unsafeBitCast(pointer, to: type)
    }

    public static let openpt = symbol("posix_openpt", as: IntCall.self)
    public static let grantpt = symbol("grantpt", as: IntCall.self)
    public static let unlockpt = symbol("unlockpt", as: IntCall.self)
    public static let ptsname = symbol("ptsname", as: NameCall.self)
    /// glibc's POSIX_SPAWN_SETSID (spawn.h), hidden behind `_GNU_SOURCE`.
    public static let spawnSetsid: Int16 = 0x80
}
