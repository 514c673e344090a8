import Foundation
import Testing

/// What the built binary loads at start, by `ldd`.
@Suite struct FootprintEndToEndTests {
    /// It links FoundationEssentials only: all of Foundation would bring FoundationInternationalization and ICU's
    /// 30 MB of data into a static build. A module that imports Foundation (instead of FoundationEssentials and the
    /// helpers in Sources/Basics), or uses Foundation's Bundle, brings them back; this test names the libraries.
    @Test func theBinaryLinksNeitherFoundationNorICU() throws {
        let text = try sharedLibraries()
        #expect(text.contains("libFoundationEssentials"), "a debug build links Swift's libraries dynamically: \(text)")
        let unwanted = text.split(separator: "\n").filter {
            $0.contains("libFoundation.so") || $0.contains("libFoundationInternationalization") || $0.contains("ICU")
        }
        #expect(unwanted.isEmpty, "linked: \(unwanted.joined(separator: "; "))")
    }

    /// The codecs, zlib and curses are linked in (Linking/static, issue 29): the dynamic loader does not map,
    /// relocate and search them at every start, and removing their packages after the build breaks nothing. A
    /// `link` line added to a module map without its script in Linking/static brings one back.
    @Test func theCodecsAndCursesAreLinkedIn() throws {
        let text = try sharedLibraries()
        let names = ["libturbojpeg", "libjpeg", "libpng", "libgif", "libwebp", "libncurses", "libtinfo", "libz."]
        let loaded = text.split(separator: "\n").filter { line in names.contains { line.contains($0) } }
        #expect(loaded.isEmpty, "loaded at start: \(loaded.joined(separator: "; "))")
        #expect(text.contains("libc.so"), "ldd's answer lists libc: \(text)")
    }

    /// `ldd`'s answer for the built binary; it must succeed.
    private func sharedLibraries() throws -> String {
        let binary = try TmuxSession.binary()
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [binary]
        let output = Pipe()
        ldd.standardOutput = output
        try ldd.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(ldd.terminationStatus == 0, "ldd \(binary) failed: \(text)")
        return text
    }
}
