import ArgumentParser
import Testing
@testable import ThumbTableCLI

/// Every number option a user gives has a ceiling, checked before anything is allocated or started, with a message
/// that names the option, the value and the range; negative values reach the check instead of "Missing value".
@Suite struct CeilingTests {
    /// ArgumentParser's message for `arguments` (the whole command line after `thumbtable`), or nil when they parse.
    func message(_ arguments: [String]) -> String? {
        do {
            _ = try ThumbTableCommand.parseAsRoot(arguments)
            return nil
        } catch {
            return ThumbTableCommand.message(for: error)
        }
    }

    static let refused: [([String], String)] = [
        (["render", "a.png", "--size", "100000x100000"],
         "--size 100000x100000 is larger than 1000x1000, the largest it takes"),
        (["render", "a.png", "--size", "-5x3"], "--size -5x3: columns and rows must both be at least 1"),
        (["render", "a.png", "--size=-5x3"], "--size -5x3: columns and rows must both be at least 1"),
        (["render", "a.png", "--cols", "-3"], "--cols -3 is out of range: it takes 1 to 1000"),
        (["render", "a.png", "--rows", "5000"], "--rows 5000 is out of range: it takes 1 to 1000"),
        (["render", "a.png", "--timeout", "1e300"], "--timeout 1e+300 is out of range: it takes 0.1 to 3600.0 seconds"),
        (["render", "a.png", "--cell-aspect", "nan"], "--cell-aspect nan is out of range: it takes 0.1 to 10.0"),
        (["photos", "--thumb-size", "500x5"], "--thumb-size 500x5 is larger than 200x100, the largest it takes"),
        (["photos", "--thumb-size", "-1x5"], "--thumb-size -1x5: columns and rows must both be at least 1"),
        (["photos", "--limit", "100000"], "--limit 100000 is out of range: it takes 1 to 1000"),
        (["photos", "--memory-cache-mb", "99999"], "--memory-cache-mb 99999 is out of range: it takes 0 to 4096 MB"),
        (["swapi", "--disk-cache-mb", "-1"], "--disk-cache-mb -1 is out of range: it takes 0 to 100000 MB"),
        (["flickr", "--max-downloads", "1000"], "--max-downloads 1000 is out of range: it takes 1 to 64"),
        (["photos", "--max-downloads-per-host", "0"], "--max-downloads-per-host 0 is out of range: it takes 1 to 64"),
        (["photos", "--timeout", "inf"], "--timeout inf is out of range: it takes 0.1 to 3600.0 seconds"),
        (["photos", "--max-image-mb", "4096"], "--max-image-mb 4096 is out of range: it takes 1 to 256 MB"),
        (["demo", "--latency", "-5"], "--latency -5 is out of range: it takes 0 to 60000 ms"),
        (["--jitter", "1000000"], "--jitter 1000000 is out of range: it takes 0 to 60000 ms"),
        (["demo", "--page-delay", "86400000"], "--page-delay 86400000 is out of range: it takes 0 to 60000 ms"),
        (["demo", "--fail-rate", "2"], "--fail-rate 2.0 is out of range: it takes 0.0 to 1.0"),
        (["demo", "--port", "70000"], "--port 70000 is out of range: it takes 0 to 65535"),
        (["serve-demo", "--port", "-1"], "--port -1 is out of range: it takes 0 to 65535"),
    ]

    @Test(arguments: refused)
    func aValueOutOfRangeIsNamedWithItsRange(_ arguments: [String], _ expected: String) throws {
        let text = try #require(message(arguments))
        #expect(text.contains(expected), "\(text)")
    }

    @Test(arguments: [
        ["render", "a.png", "--size", "1000x1000", "--cols", "1000", "--rows", "1", "--timeout", "3600"],
        ["photos", "--thumb-size", "200x100", "--limit", "1000", "--memory-cache-mb", "0", "--max-image-mb", "256"],
        ["demo", "--latency", "60000", "--jitter", "0", "--port", "65535", "--fail-rate", "1"],
    ])
    func theCeilingsThemselvesAreTaken(_ arguments: [String]) {
        #expect(message(arguments) == nil)
    }

    @Test func thumbSizeIsReadByTheSameParserAsRenderSize() throws {
        let photos = try #require(try ThumbTableCommand.parseAsRoot(["photos", "--thumb-size", "20X8"]) as? PhotosCommand)
        let size = try photos.display.thumbnailSize()
        #expect(size?.columns == 20 && size?.rows == 8)
    }

    @Test func thumbSizeIsSizedToTheScreenUnlessGiven() throws {
        let plain = try #require(try ThumbTableCommand.parseAsRoot(["photos"]) as? PhotosCommand)
        #expect(try plain.display.thumbnailSize() == nil)
        let auto = try #require(try ThumbTableCommand.parseAsRoot(["photos", "--thumb-size", "AUTO"]) as? PhotosCommand)
        #expect(try auto.display.thumbnailSize() == nil)
        #expect(message(["photos", "--thumb-size", "big"])?.contains("must be auto or look like 40x20") == true)
    }
}
