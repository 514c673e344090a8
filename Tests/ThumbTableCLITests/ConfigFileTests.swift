import ArgumentParser
import Foundation
import Testing
@testable import ThumbTableCLI

/// The config file: its TOML subset read strictly, line numbers in every message, its values put in front of a
/// browsing command's arguments only where the command line does not give them.
@Suite struct ConfigFileTests {
    func parse(_ text: String) throws(ConfigFile.Problem) -> ConfigFile {
        try ConfigFile(path: "/home/me/.config/thumbtable/config.toml", text: text)
    }

    @Test func readsStringsNumbersBooleansAndComments() throws {
        let file = try parse("""
            # my defaults
            thumb-size = "24x10"   # a comment after a value
            layout = 'grid'
            memory-cache-mb = 1_024
            timeout = 2.5
            low-data = true

            save_dir = "/tmp/with \\"quotes\\" and \\u00e9"
            """)
        #expect(file.entries.map(\.key) == ["thumb-size", "layout", "memory-cache-mb", "timeout", "low-data", "save_dir"])
        #expect(file.entries.map(\.value) == [.string("24x10"), .string("grid"), .integer(1024), .number(2.5),
                                              .boolean(true), .string("/tmp/with \"quotes\" and é")])
        #expect(file.entries.map(\.line) == [2, 3, 4, 5, 6, 8])
    }

    @Test func whatTheSubsetDoesNotReadIsRefusedWithItsLine() {
        let cases: [(String, String)] = [
            ("[display]\nlayout = \"grid\"", ":1: tables ([section]) are not read"),
            ("layout = grid", ":1: \"grid\" is not a value"),
            ("a = 1\nlayout = \"grid", ":2: the string has no closing \""),
            ("layout = \"list\"\nlayout = \"grid\"", ":2: layout is set twice (first on line 1)"),
            ("sizes = [1, 2]", ":1: arrays and inline tables are not read"),
            ("just words", ":1: expected key = value"),
            ("mode = \"a\" b", ":1: unexpected \"b\" after the value of mode"),
        ]
        for (text, expected) in cases {
            #expect(throws: ConfigFile.Problem.self) { try parse(text) }
            do {
                _ = try parse(text)
            } catch {
                #expect(error.description.contains("config.toml" + expected), "\(text): \(error)")
            }
        }
    }

    @Test func theFileIsLookedForUnderXDGConfigHomeElseHome() {
        #expect(ConfigFile.location(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/thumbtable/config.toml")
        #expect(ConfigFile.location(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"])
                == "/h/.config/thumbtable/config.toml")
        #expect(ConfigFile.location(environment: [:]) == nil)
    }

    /// A config home holding `text` as the config file.
    func configHome(_ text: String) throws -> [String: String] {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tt-config-\(UUID().uuidString)")
        let folder = home.appendingPathComponent("thumbtable")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try text.write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        return ["XDG_CONFIG_HOME": home.path]
    }

    @Test func valuesGoInFrontOfTheCommandsArgumentsAndTheCommandLineWins() throws {
        let environment = try configHome("layout = \"grid\"\nthumb-size = \"20x8\"\nlow-data = true\nno-prefetch = false\n")
        #expect(try ConfigDefaults.apply(to: ["photos", "--thumb-size=30x10"], environment: environment)
                == ["photos", "--layout", "grid", "--low-data", "--thumb-size=30x10"])
        #expect(try ConfigDefaults.apply(to: ["--layout", "list"], environment: environment)
                == ["--thumb-size", "20x8", "--low-data", "--layout", "list"], "the default command: demo")
        #expect(try ConfigDefaults.apply(to: ["render", "x.png"], environment: environment) == ["render", "x.png"])
        #expect(try ConfigDefaults.apply(to: ["photos", "--help"], environment: environment) == ["photos", "--help"])
    }

    /// `pick` takes the file's display settings as `browse` does; its own options and the command line's win.
    @Test func pickTakesTheFilesDisplaySettingsToo() throws {
        let environment = try configHome("layout = \"grid\"\nmode = \"blocks\"\nno-disk-cache = true\n")
        #expect(try ConfigDefaults.apply(to: ["pick"], environment: environment)
                == ["pick", "--layout", "grid", "--mode", "blocks", "--no-disk-cache"])
        #expect(try ConfigDefaults.apply(to: ["pick", "--json", "--layout", "list"], environment: environment)
                == ["pick", "--mode", "blocks", "--no-disk-cache", "--json", "--layout", "list"])
        #expect(try ConfigDefaults.apply(to: ["pick", "--layout=list"], environment: environment)
                == ["pick", "--mode", "blocks", "--no-disk-cache", "--layout=list"])
    }

    /// Expects the config file `text` to stop `thumbtable photos` with a message holding `expected`.
    func expectStops(_ text: String, saying expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let environment = try configHome(text)
        do {
            _ = try ConfigDefaults.apply(to: ["photos"], environment: environment)
            Issue.record("the file was accepted: \(text)", sourceLocation: sourceLocation)
        } catch {
            let message = DisplayOptions.message(for: error)
            #expect(message.contains(expected), "\(message)", sourceLocation: sourceLocation)
            // A config file problem is no usage mistake: its own status, no usage text.
            #expect((error as? RunFailure)?.status == 78, "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func graphicsAndTheMemoryLimitCanBeSetToo() throws {
        let environment = try configHome("graphics = \"text\"\nmemory_limit = 512\n")
        #expect(try ConfigDefaults.apply(to: ["photos"], environment: environment)
                == ["photos", "--graphics", "text", "--memory-limit", "512"])
        try expectStops("graphics = \"pixels\"\n", saying: "config.toml:1: graphics = \"pixels\": ")
    }

    @Test func anUnknownKeyOrABadValueStopsWithTheFileLineAndKey() throws {
        try expectStops("layout = \"grid\"\nthumbsize = \"20x8\"\n",
                        saying: "config.toml:2: thumbsize = \"20x8\": unknown key; the file can set")
        try expectStops("memory-cache-mb = 99999\n",
                        saying: "config.toml:1: memory-cache-mb = 99999: --memory-cache-mb 99999 is out of range")
        try expectStops("low-data = \"yes\"\n", saying: "config.toml:1: low-data = \"yes\": needs true or false")
    }

    @Test func aSaveDirStartingWithTildeIsUnderHome() throws {
        #expect(try SaveAndFilterOptions.parse(["--save-dir", "~/saved"]).saveFolder
                == (NSHomeDirectory() as NSString).appendingPathComponent("saved"))
        #expect(try SaveAndFilterOptions.parse(["--save-dir", "a~b"]).saveFolder == "a~b")
        #expect(try SaveAndFilterOptions.parse([]).saveFolder == ".")
    }

    @Test func noFileMeansTheArgumentsAsTheyAre() throws {
        let environment = ["XDG_CONFIG_HOME": "/nonexistent-\(UUID().uuidString)"]
        #expect(try ConfigDefaults.apply(to: ["photos", "-j"], environment: environment) == ["photos", "-j"])
    }

    /// `thumb-size` and `thumb_size` name one option: in one file they are one key set twice, in either order.
    @Test func oneKeySpelledTwoWaysIsSetTwice() {
        for (first, second) in [("thumb-size", "thumb_size"), ("save_dir", "save-dir"), ("no_prefetch", "no-prefetch")] {
            #expect(throws: ConfigFile.Problem.self) { try parse("\(first) = \"1\"\n\(second) = \"2\"") }
            do {
                _ = try parse("\(first) = \"1\"\n\(second) = \"2\"")
            } catch {
                #expect(error.description.hasSuffix(":2: \(second) is set twice (first on line 1 as \(first)); keep one"),
                        "\(error)")
            }
        }
    }

    /// A NUL in a value (TOML's `\u0000`, or the byte itself in either kind of string) is refused: a path holding
    /// one would be cut short where it is used.
    @Test func aNULInAValueIsRefused() {
        for text in ["save-dir = \"/tmp/a\\u0000b\"", "save-dir = \"/tmp/a\u{0}b\"", "save-dir = '/tmp/a\u{0}b'"] {
            #expect(throws: ConfigFile.Problem.self) { try parse(text) }
            do {
                _ = try parse(text)
            } catch {
                #expect(error.description.contains(":1: the value of save-dir holds a NUL character"), "\(error)")
            }
        }
    }

    /// A 60 KB key or value is cut in the message, its length said.
    @Test func aLongKeyOrValueIsCutInTheMessage() throws {
        let long = String(repeating: "k", count: 60_000)
        // A 60,000-letter key is a key to the parser (ConfigDefaults then says it is unknown, below).
        for text in ["\(long)", "layout = \(long)", "layout = \"grid\" \(long)", "\(long.dropLast(2)).k = 1"] {
            do {
                _ = try parse(text)
                Issue.record("accepted")
            } catch {
                #expect(error.description.count < 400 && error.description.contains("(60000 characters)"),
                        "\(error.description.prefix(300))")
            }
        }
        // Refused by the options' checks: an unknown key, and a value the option refuses.
        for (text, length) in [("\(long) = 1\n", 60_000), ("layout = \"\(long)\"\n", 60_002)] {
            let environment = try configHome(text)
            do {
                _ = try ConfigDefaults.apply(to: ["photos"], environment: environment)
                Issue.record("accepted")
            } catch {
                let message = DisplayOptions.message(for: error)
                #expect(message.count < 800 && message.contains("(\(length) characters)"), "\(message.prefix(900))")
            }
        }
    }
}
