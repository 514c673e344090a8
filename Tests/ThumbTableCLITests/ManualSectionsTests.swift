import Foundation
import Pipeline
import Testing
@testable import ThumbTableCLI

/// The man page's KEYS, ENVIRONMENT, FILES and EXAMPLES come from `ManualSections`: docs/thumbtable.1 holds them
/// as `thumbtable --manual-sections` prints them, and the files it names are where the program looks.
@Suite struct ManualSectionsTests {
    static let manPage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/thumbtable.1")

    @Test func theManPageHoldsTheSectionsBeforeExitStatus() throws {
        let page = try String(contentsOf: Self.manPage, encoding: .utf8)
        let sections = page.range(of: ManualSections.text + "\n.Sh \"EXIT STATUS\"")
        #expect(sections != nil, "docs/thumbtable.1 differs from ManualSections: scripts/generate-manual rewrites it")
        for title in ["KEYS", "ENVIRONMENT", "FILES", "EXAMPLES"] {
            #expect(ManualSections.text.contains(".Sh \(title)\n"))
        }
    }

    @Test func theFilesAreWhereTheProgramLooks() {
        let environment = ["XDG_CONFIG_HOME": "/config", "XDG_CACHE_HOME": "/cache", "HOME": "/home/user"]
        let config = ManualSections.files[0].name.replacing("$XDG_CONFIG_HOME", with: "/config")
        #expect(ConfigFile.location(environment: environment) == config)
        let cache = ManualSections.files[1].name.replacing("$XDG_CACHE_HOME", with: "/cache")
        #expect(DiskCache.defaultDirectory(environment: environment).path + "/" == cache)
        #expect(ConfigFile.location(environment: ["HOME": "/home/user"]) == "/home/user/.config/thumbtable/config.toml")
        #expect(ManualSections.files[0].text.contains("~/.config/thumbtable/config.toml"))
    }

    @Test func everyVariableItNamesIsReadSomewhere() throws {
        // The sources are read as text: a variable the man page names must appear in a read of the environment.
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        let text = try files.map { try String(contentsOf: $0, encoding: .utf8) }.joined()
        for entry in ManualSections.environment {
            for name in entry.name.split(separator: ", ") {
                let read = text.contains("getenv(\"\(name)\")") || text.contains("environment[\"\(name)\"]")
                    || text.contains("variable(\"\(name)\")")
                #expect(read, "\(name) is in the man page but no source reads it")
            }
        }
    }
}
