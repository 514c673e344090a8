import Foundation
import Testing

/// What a user reaches for, in the built binary in tmux: saving the original image and the picture (`w`, `W`),
/// opening and copying its URL (`o`, `y`), next and previous in the detail pane (`n`, `p`), the config file, `browse`
/// with no argument, and the filter's read limit.
@Suite(.serialized, .enabled(if: TmuxSession.tmuxAvailable, "tmux is not installed"))
struct ReachEndToEndTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized
    static let names = ["chelsea.png", "coffee.png"]

    /// A scratch folder with a `photos` folder of two real photos and an empty `saved` folder.
    static func scratch() throws -> URL {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tt-reach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch.appendingPathComponent("photos"),
                                                withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: scratch.appendingPathComponent("saved"),
                                                withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(at: photos.appendingPathComponent(name),
                                            to: scratch.appendingPathComponent("photos/\(name)"))
        }
        return scratch
    }

    /// `thumbtable browse` on the scratch folder's photos with `options`, its detail pane open on the first photo
    /// with the picture loaded.
    static func paneOpen(_ scratch: URL, _ options: [String], columns: Int = 160,
                         environment: [String: String] = [:]) async throws -> TmuxSession {
        let tmux = try TmuxSession(["browse", scratch.appendingPathComponent("photos").path, "--no-disk-cache"]
                                   + options, columns: columns, environment: environment)
        try await tmux.waitFor(text: "chelsea.png")
        try tmux.send("Enter")
        try await tmux.waitFor(text: "Image state: loaded")
        return tmux
    }

    static func bytes(_ url: URL) -> [UInt8]? {
        (try? Data(contentsOf: url)).map { [UInt8]($0) }
    }

    @Test func wSavesTheOriginalBytesAgainUnderANumberedNameAndWSavesThePictureNAndPMove() async throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let saved = scratch.appendingPathComponent("saved")
        let tmux = try await Self.paneOpen(scratch, ["--color", "none", "--mode", "ascii", "--save-dir", saved.path])
        defer { tmux.close() }
        try tmux.send("w")
        try await tmux.waitFor(text: "saved the image as \(saved.path)/chelsea.png")
        #expect(Self.bytes(saved.appendingPathComponent("chelsea.png"))
                == Self.bytes(Self.photos.appendingPathComponent("chelsea.png")))
        try tmux.send("w")
        try await tmux.waitFor(text: "chelsea-1.png")
        #expect(Self.bytes(saved.appendingPathComponent("chelsea-1.png"))
                == Self.bytes(Self.photos.appendingPathComponent("chelsea.png")))
        try tmux.send("W")
        try await tmux.waitFor(text: "saved the picture as \(saved.path)/chelsea.txt")
        let art = try String(contentsOf: saved.appendingPathComponent("chelsea.txt"), encoding: .utf8)
        #expect(art.split(separator: "\n").count > 3, "the picture's lines")
        #expect(!art.contains("\u{1B}"), "--color none: plain text")

        // n and p: the next item and back, the pane still open.
        try tmux.send("n")
        try await tmux.waitFor(text: "coffee.png")
        try tmux.send("n")
        try await tmux.waitFor(text: "this is the last item")
        try tmux.send("p")
        try await tmux.waitFor(text: "chelsea.png")
        try tmux.send("q", "q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func aFolderThatCannotBeWrittenSaysWhyAndTheProgramGoesOn() async throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Root writes anywhere chmod forbids, but not in sysfs.
        let unwritable: String
        if getuid() == 0 {
            unwritable = "/sys"
        } else {
            unwritable = scratch.appendingPathComponent("read-only").path
            mkdir(unwritable, 0o555)
        }
        let tmux = try await Self.paneOpen(scratch, ["--save-dir", unwritable])
        defer { tmux.close() }
        try tmux.send("w")
        try await tmux.waitFor(text: "image not saved: cannot write in \(unwritable): creating chelsea.png: permission denied")
        let missing = scratch.appendingPathComponent("missing").path
        tmux.close()
        let second = try await Self.paneOpen(scratch, ["--save-dir", missing])
        defer { second.close() }
        try second.send("w")
        try await second.waitFor(text: "no such folder; create it or give --save-dir another")
        try second.send("j")
        try await second.waitFor(text: "Esc back · n/p next/prev")
        try second.send("q", "q")
        #expect(try await second.exitStatus() == 0)
    }

    /// A browser script that appends its arguments, one a line, to `record`, then says it is done by adding a line
    /// to `done`: a test reads the record once `done` exists, not while the script may still be writing it.
    static func recordingBrowser(in scratch: URL) throws -> (script: URL, record: URL, done: URL) {
        let record = scratch.appendingPathComponent("argv.txt")
        let done = scratch.appendingPathComponent("argv.done")
        let script = scratch.appendingPathComponent("browser.sh")
        try """
            #!/bin/sh
            for a in "$@"; do printf '%s\\n' "$a"; done >> \(record.path)
            echo >> \(done.path)
            """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        return (script, record, done)
    }

    @Test func oRunsBROWSERWithTheURLAndYCopiesItThroughTmux() async throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (script, record, done) = try Self.recordingBrowser(in: scratch)
        let tmux = try TmuxSession(DemoEndToEndTests.fastDemo + ["--port", "0"], columns: 200,
                                   environment: ["BROWSER": "sh " + script.path])
        defer { tmux.close() }
        try tmux.tmux(["set-option", "-g", "set-clipboard", "on"])
        // Settled: the first row's picture was looked up, so it has its URLs.
        try await tmux.waitFor("the first rows with thumbnails") { lines in
            lines.first?.contains(" 1 / ") == true
                && !lines.joined().unicodeScalars.contains { DemoEndToEndTests.spinner.contains($0) }
        }
        try tmux.send("o")
        let opened = try await tmux.waitFor(text: "opened the ")
        let status = try #require(opened.first { $0.contains("opened the ") })
        let url = try #require(status.components(separatedBy: ": ").last?.trimmingCharacters(in: .whitespaces))
        #expect(url.hasPrefix("http"))
        try await tmux.waitFor("the browser script to finish") { _ in
            FileManager.default.fileExists(atPath: done.path)
        }
        #expect(try String(contentsOf: record, encoding: .utf8) == url + "\n", "one argument: the URL")

        try tmux.send("y")
        try await tmux.waitFor(text: "copied the ")
        try await tmux.waitForPasteBuffer(url)

        // A folder's images are the user's own files: `o` gives the command the file's path, `y` copies the path.
        tmux.close()
        try FileManager.default.removeItem(at: done)
        let folder = try TmuxSession(["browse", scratch.appendingPathComponent("photos").path, "--no-disk-cache"],
                                     environment: ["BROWSER": "sh " + script.path])
        defer { folder.close() }
        try folder.tmux(["set-option", "-g", "set-clipboard", "on"])
        try await folder.waitFor(text: "chelsea.png")
        try folder.send("o")
        let file = scratch.appendingPathComponent("photos/chelsea.png").path
        try await folder.waitFor(text: "opened the file with sh")
        try await folder.waitFor("the browser script to finish") { _ in
            FileManager.default.fileExists(atPath: done.path)
        }
        #expect(try String(contentsOf: record, encoding: .utf8) == url + "\n" + file + "\n")
        try folder.send("y")
        try await folder.waitFor(text: "copied the file's path")
        try await folder.waitForPasteBuffer(file)
        try folder.send("q")
        #expect(try await folder.exitStatus() == 0)
    }

    /// `o` and `y` take the field the source marks as the item's page: on the demo's Wookie, the Instant Answer's
    /// Abstract URL, never its Homeworld or Record (SWAPI's JSON, also http URLs on the same server).
    @Test func oAndYTakeThePageTheSourceNamesNotAnAPIRecord() async throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (script, record, done) = try Self.recordingBrowser(in: scratch)
        let tmux = try TmuxSession(DemoEndToEndTests.fastDemo + ["--port", "0"], columns: 200,
                                   environment: ["BROWSER": "sh " + script.path])
        defer { tmux.close() }
        try tmux.tmux(["set-option", "-g", "set-clipboard", "on"])
        try await tmux.waitFor(text: "Wookie")
        // The filter leaves Wookie alone and selected; its fields came with its page (the lookups run first).
        try tmux.send("/")
        try tmux.type("Wookie")
        try tmux.send("Enter", "Enter")
        try await tmux.waitFor(text: "Homeworld")
        try tmux.send("o")
        try await tmux.waitFor(text: "opened the page with ")
        try await tmux.waitFor("the browser script to finish") { _ in
            FileManager.default.fileExists(atPath: done.path)
        }
        #expect(try String(contentsOf: record, encoding: .utf8) == "https://scikit-image.org\n")
        try tmux.send("y")
        try await tmux.waitFor(text: "the page URL")
        try await tmux.waitForPasteBuffer("https://scikit-image.org")
        try tmux.send("q", "q")
        #expect(try await tmux.exitStatus() == 0)
    }

    /// `o` while the demo holds connections to its API: the browser gets stdin, stdout and stderr and nothing of
    /// ours (no connection, no socketpair, no pipe), as its own `ls -l /proc/self/fd` shows.
    @Test func theBrowserHoldsNoDescriptorOfOurs() async throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let record = scratch.appendingPathComponent("fds.txt")
        let script = scratch.appendingPathComponent("browser.sh")
        // The listing is written aside and renamed: the test reads it whole.
        try """
            #!/bin/sh
            ls -l /proc/self/fd > \(record.path).part
            mv \(record.path).part \(record.path)
            """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        let tmux = try TmuxSession(DemoEndToEndTests.fastDemo + ["--port", "0"], columns: 200,
                                   environment: ["BROWSER": "sh " + script.path])
        defer { tmux.close() }
        try await tmux.waitFor("the first rows with thumbnails") { lines in
            lines.first?.contains(" 1 / ") == true
                && !lines.joined().unicodeScalars.contains { DemoEndToEndTests.spinner.contains($0) }
        }
        try tmux.send("o")
        try await tmux.waitFor("the browser script's listing") { _ in FileManager.default.fileExists(atPath: record.path) }
        let listing = try String(contentsOf: record, encoding: .utf8)
        let held = listing.split(separator: "\n").filter { line in
            guard let arrow = line.range(of: " -> ") else { return false }
            let number = line[..<arrow.lowerBound].split(separator: " ").last ?? ""
            let target = line[arrow.upperBound...]
            // ls's own descriptor on the folder it lists is not inherited.
            return !["0", "1", "2"].contains(number) && !(target.hasPrefix("/proc/") && target.hasSuffix("/fd"))
        }
        #expect(held.isEmpty, "the browser holds \(held)")
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    /// `thumbtable photo.png` on a terminal: a list of one, its detail pane open on the picture; Esc shows the list.
    @Test func aFileOpensInTheDetailPaneOfAListOfOne() async throws {
        let file = Self.photos.appendingPathComponent("chelsea.png").path
        let tmux = try TmuxSession([file, "--no-disk-cache"], columns: 120)
        defer { tmux.close() }
        try await tmux.waitFor(text: "Image state: loaded")
        try tmux.send("Escape")
        try await tmux.waitFor("the list of one") { lines in
            lines.contains { $0.contains("chelsea.png") } && !lines.contains { $0.contains("Image state") }
        }
        try tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func theConfigFileSetsDefaultsTheCommandLineWinsAndABadOneStops() async throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let config = scratch.appendingPathComponent("config/thumbtable")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "# defaults\nlayout = \"grid\"\nsave-dir = \"\(scratch.appendingPathComponent("saved").path)\"\n"
            .write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": scratch.appendingPathComponent("config").path]
        let photos = scratch.appendingPathComponent("photos").path

        let grid = try await Self.paneOpen(scratch, [], environment: environment)
        defer { grid.close() }
        try grid.send("w")
        try await grid.waitFor(text: "saved the image as \(scratch.path)/saved/chelsea.png")
        try grid.send("Escape")
        try await grid.waitFor(text: "v list")
        grid.close()

        let list = try TmuxSession(["browse", photos, "--no-disk-cache", "--layout", "list"], environment: environment)
        defer { list.close() }
        try await list.waitFor(text: "chelsea.png")
        // A key clears a start-up note (the graphics detection's) from the status line, which then shows the keys.
        try list.send("k")
        try await list.waitFor(text: "j/k move")
        list.close()

        try "layout = \"grid\"\nthumb-size = \"huge\"\n"
            .write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let bad = try TmuxSession(["browse", photos], environment: environment)
        defer { bad.close() }
        try await bad.waitFor("the config file's message") { lines in
            lines.joined().contains("config.toml:2: thumb-size = \"huge\": --thumb-size must be auto or look like")
        }
        // A config file is no mistake on the command line: no usage text, and EX_CONFIG's status.
        #expect(try await bad.exitStatus() == 78)
        let screen = try bad.screen().joined(separator: "\n")
        #expect(!screen.contains("Usage:") && !screen.contains("--help"), "\(screen)")
    }

    @Test func browseWithNoArgumentBrowsesTheCurrentFolder() async throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let tmux = try TmuxSession(interactiveShellColumns: 100, rows: 30)
        defer { tmux.close() }
        try await tmux.waitFor(text: "$")
        try tmux.type("cd \(TmuxSession.quote(scratch.appendingPathComponent("photos").path)) && "
                      + (try TmuxSession.commandLine(["browse", "--no-disk-cache"])))
        try tmux.send("Enter")
        try await tmux.waitFor(text: "coffee.png")
        try tmux.send("q")
        try await tmux.waitFor("the shell's prompt again") { lines in
            lines.contains { $0.trimmingCharacters(in: .whitespaces) == "$" }
        }
    }

    @Test func aFilterMatchingNothingStopsAtItsReadLimitAndEnterReadsMore() async throws {
        let tmux = try TmuxSession(["demo", "--port", "0", "--latency", "0", "--jitter", "0", "--page-delay", "0",
                                    "--thumb-size", "12x5", "--filter-read-limit", "100"])
        defer { tmux.close() }
        try await tmux.waitFor(text: " 1 / ")
        try tmux.send("/")
        try tmux.type("zzzq")
        try await tmux.waitFor(text: "No match for \"zzzq\" in 100 rows read; reading stopped")
        try tmux.send("Enter", "Enter")
        try await tmux.waitFor(text: "(200 read) · Enter reads 100 more")
        try tmux.send("Escape")
        try await tmux.waitFor(text: " 1 / ")
    }

    @Test func theManPageAndTheCompletionScriptsKnowEveryOption() throws {
        let page = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/thumbtable.1").standardized, encoding: .utf8)
        let help = try BinaryRun.run(["browse", "--help"])
        #expect(help.status == 0)
        let options = Set(help.stdoutText.matches(of: /--[a-z][a-z0-9-]+/).map { String($0.output) })
        #expect(options.contains("--save-dir") && options.contains("--filter-read-limit"))
        let missing = options.filter { !page.contains("Fl -" + $0.dropFirst(2)) }
        #expect(missing.isEmpty, "not in docs/thumbtable.1 (run scripts/generate-manual): \(missing.sorted())")
        for shell in ["bash", "zsh", "fish"] {
            let script = try BinaryRun.run(["--generate-completion-script", shell])
            #expect(script.status == 0)
            #expect(script.stdoutText.contains("save-dir"), "\(shell)")
        }
    }
}
