import Foundation
import Testing

/// The built binary links FoundationEssentials only: all of Foundation would bring FoundationInternationalization
/// and ICU's 30 MB of data into a static build. A module that imports Foundation (instead of FoundationEssentials and
/// the helpers in Sources/Basics), or uses Foundation's Bundle, brings them back; this test names the libraries.
@Suite struct FootprintEndToEndTests {
    @Test func theBinaryLinksNeitherFoundationNorICU() throws {
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
        #expect(text.contains("libFoundationEssentials"), "a debug build links Swift's libraries dynamically: \(text)")
        let unwanted = text.split(separator: "\n").filter {
            $0.contains("libFoundation.so") || $0.contains("libFoundationInternationalization") || $0.contains("ICU")
        }
        #expect(unwanted.isEmpty, "linked: \(unwanted.joined(separator: "; "))")
    }
}
