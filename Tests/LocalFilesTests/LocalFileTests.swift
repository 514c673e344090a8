import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import LocalFiles

/// Local files are read only when they are regular files, without ever blocking, by their exact bytes.
@Suite struct LocalFileTests {
    let folder: LocalPath

    init() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("localfile-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        folder = LocalPath(path)
    }

    func write(_ bytes: [UInt8], to path: LocalPath) throws {
        let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
    }

    @Test func aRegularFileIsReadWhole() throws {
        let path = folder.appending(Array("a.bin".utf8))
        let bytes = (0..<300_000).map { UInt8($0 % 251) }
        try write(bytes, to: path)
        var reported = 0
        #expect(try LocalFile.read(path, limit: 1 << 20, received: { reported += $0 }) == bytes)
        #expect(reported == bytes.count)
        #expect(try LocalFile.readPrefix(path, count: 10) == Array(bytes.prefix(10)))
        #expect(LocalFile.kind(of: path) == .regular(size: bytes.count))
    }

    @Test func aFileOverTheLimitIsRefusedBeforeReading() throws {
        let path = folder.appending(Array("big.bin".utf8))
        try write([UInt8](repeating: 1, count: 5000), to: path)
        #expect(throws: LocalFile.Failure(path: path, reason: .tooLarge(size: 5000, limit: 4096))) {
            try LocalFile.read(path, limit: 4096)
        }
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let path = folder.appending(Array("x.jpg".utf8))
        #expect(path.withCString { mkfifo($0, 0o644) } == 0)
        // Opening a FIFO for reading without O_NONBLOCK waits for a writer forever; this returns at once.
        #expect(throws: LocalFile.Failure(path: path, reason: .notARegularFile(.fifo))) {
            try LocalFile.read(path, limit: 1 << 20)
        }
        #expect(LocalFile.kind(of: path) == .fifo)
    }

    @Test func aSymlinkToTheTerminalOrAFolderIsRefused() throws {
        let tty = folder.appending(Array("tty.png".utf8))
        #expect(symlink("/dev/tty", tty.withCString { String(cString: $0) }) == 0)
        #expect(LocalFile.kind(of: tty) == .characterDevice || LocalFile.kind(of: tty) == .missing)
        #expect(throws: LocalFile.Failure.self) { try LocalFile.read(tty, limit: 1 << 20) }
        let null = folder.appending(Array("null.png".utf8))
        #expect(symlink("/dev/null", null.withCString { String(cString: $0) }) == 0)
        #expect(throws: LocalFile.Failure(path: null, reason: .notARegularFile(.characterDevice))) {
            try LocalFile.read(null, limit: 1 << 20)
        }
        #expect(throws: LocalFile.Failure(path: folder, reason: .notARegularFile(.directory))) {
            try LocalFile.read(folder, limit: 1 << 20)
        }
        let dangling = folder.appending(Array("gone.png".utf8))
        #expect(symlink("/nonexistent/really", dangling.withCString { String(cString: $0) }) == 0)
        #expect(LocalFile.kind(of: dangling) == .brokenLink)
    }

    @Test func aNameThatIsNotUTF8TravelsAsAFileURLAndOpensByItsBytes() throws {
        let name: [UInt8] = Array("caf".utf8) + [0xE9, 0xFF] + Array(" %20#?.png".utf8)
        let path = folder.appending(name)
        try write([1, 2, 3], to: path)
        let url = path.fileURL
        #expect(url.absoluteString.allSatisfy { $0.isASCII && !$0.isWhitespace })
        let back = try #require(LocalPath(fileURL: url))
        #expect(back == path)
        #expect(try LocalFile.read(back, limit: 100) == [1, 2, 3])
        #expect(path.description.hasSuffix("caf\\xE9\\xFF %20#?.png"))
    }

    @Test func onlyLocalFileURLsArePaths() {
        #expect(LocalPath(fileURL: URL(string: "http://example.com/a.png")!) == nil)
        #expect(LocalPath(fileURL: URL(string: "file://example.com/etc/passwd")!) == nil)
        #expect(LocalPath(fileURL: URL(string: "file://localhost/etc/passwd")!) == LocalPath("/etc/passwd"))
        #expect(LocalPath(fileURL: URL(string: "file:///a%00b")!) == nil)
    }

    @Test func blockingWorkRunsOffTheCallingTask() async throws {
        let value = try await BlockingIO.run { () throws(LocalFile.Failure) -> Int in 42 }
        #expect(value == 42)
        await #expect(throws: LocalFile.Failure.self) {
            try await BlockingIO.run { () throws(LocalFile.Failure) -> [UInt8] in
                try LocalFile.read(folder, limit: 10)
            }
        }
    }
}
