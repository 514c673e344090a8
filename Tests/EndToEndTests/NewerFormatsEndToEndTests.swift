import Foundation
import TestSupport
import Testing

/// HEIC, AVIF and JPEG XL files (made at test time by Debian's encoders from chelsea.png) through the built binary:
/// a folder of them in tmux shows their pictures in rows, `render` draws each, and over HTTP they decode too.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable && NewerFormatFiles.encodersAvailable,
                             "tmux, heif-enc, avifenc or cjxl is missing"))
struct NewerFormatsEndToEndTests {
    static let names = ["a-photo.heic", "b-photo.avif", "c-photo.jxl"]

    /// A folder holding one file of each format, removed after `body`.
    func withFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = try NewerFormatFiles.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (encoder, name) in zip(NewerFormatFiles.Encoder.all, Self.names) {
            try NewerFormatFiles.make(encoder, in: folder, name: name)
        }
        try await body(folder)
    }

    /// What `thumbtable render` prints for a file at the thumbnail size, non-empty lines only.
    func rendered(_ path: String) throws -> [String] {
        let (status, output) = try TmuxSession.run([try TmuxSession.binary(), "render", path, "--size", "12x5",
                                                    "--mode", "ascii", "--color", "none"])
        #expect(status == 0, "render \(path): \(output)")
        return output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    @Test func aFolderOfEachFormatShowsItsPicturesInRows() async throws {
        try await withFolder { folder in
            let tmux = try TmuxSession(["browse", folder.path, "--mode", "ascii", "--color", "none",
                                        "--thumb-size", "12x5", "--no-disk-cache"])
            defer { tmux.close() }
            var previous: [String] = []
            let screen = try await tmux.waitFor("three rows settled") { lines in
                defer { previous = lines }
                let spinning = lines.joined().unicodeScalars.contains { DemoEndToEndTests.spinner.contains($0) }
                return lines == previous && !spinning && lines.joined().contains("c-photo.jxl")
            }
            #expect(!screen.joined().contains("✗"), "no thumbnail failed:\n\(screen.joined(separator: "\n"))")
            for name in Self.names {
                let picture = try rendered(folder.appendingPathComponent(name).path)
                #expect(picture.count >= 3, "\(name) renders as a picture")
                // Each row shows its file's picture: its widest line of text art is on screen.
                let widest = try #require(picture.max { $0.count < $1.count })
                #expect(screen.contains { $0.contains(widest) }, "\(name)'s thumbnail is in its row")
            }
            try tmux.send("q")
            #expect(try await tmux.exitStatus() == 0)
        }
    }

    @Test func eachFormatDecodesOverHTTPWithPrint() async throws {
        try await withFolder { folder in
            try await TestHTTPServer.with { server in
                let results = Self.names.map { name in
                    ["name": "Picture \(name)", "image": "/img/\(name.split(separator: ".")[0])"]
                }
                let body = try JSONSerialization.data(withJSONObject: ["results": results])
                server.serve("/api", .ok([UInt8](body), contentType: "application/json"))
                for name in Self.names {
                    let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
                    // No extension in the URL and a generic type: the bytes alone say the format.
                    server.serve("/img/\(name.split(separator: ".")[0])",
                                 .ok(bytes, contentType: "application/octet-stream"))
                }
                let run = try await PipedRun.run(["browse", server.url("/api").absoluteString, "--items", "results",
                                                  "--title", "name", "--image", "image", "--print", "--print-size",
                                                  "80x24", "--mode", "ascii", "--color", "none", "--no-disk-cache"])
                #expect(run.status == 0, "\(run.stderrText)")
                let text = run.stdoutText
                for name in Self.names { #expect(text.contains("Picture \(name)")) }
                #expect(!text.contains("✗") && !text.contains("failed"), "\(text)")
            }
        }
    }
}
