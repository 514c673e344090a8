import ArgumentParser
import Testing
@testable import ThumbTableCLI

/// `render`'s quick parser never disagrees with ArgumentParser: it knows the same options, gives the same command, or
/// gives up.
@Suite struct RenderQuickParseTests {
    /// Argument lists the quick parser takes.
    static let taken: [[String]] = [
        ["a.jpg"],
        ["a.jpg", "--size", "80x40", "--mode", "ascii", "--color", "none"],
        ["--size=40x20", "--stretch", "b c.png"],
        ["--mode", "braille", "--color", "256", "--dither", "fs", "x.gif", "--cols", "12"],
        ["https://example.com/a.webp", "--timeout", "2.5", "--background", "#ffffff", "--cell-aspect", "0.45"],
        ["a.jpg", "--size", "1000x1000", "--cols", "1000", "--timeout", "3600"],
        ["--rows=3", "--cols=4", "img.png", "--color=truecolor"],
    ]

    /// Argument lists it leaves to ArgumentParser: help, mistakes, forms it does not handle.
    static let leftAlone: [[String]] = [
        [], ["--help"], ["-h"], ["a.jpg", "b.jpg"], ["a.jpg", "--size"], ["a.jpg", "--size", "80"],
        ["a.jpg", "--mode", "sixel"], ["a.jpg", "--cols", "0"], ["a.jpg", "--cols", "-3"], ["a.jpg", "--bogus", "1"],
        ["a.jpg", "--stretch=yes"], ["a.jpg", "--size", "8x8", "--size", "9x9"], ["--", "a.jpg"], ["-"],
        ["a.jpg", "--background", "white"], ["a.jpg", "--timeout", "0"], ["a.jpg", "--cell-aspect", "nan"], [""],
        ["a.jpg", "--background="],
        // Over a ceiling or below a floor: ArgumentParser prints the message, the same one for both paths.
        ["a.jpg", "--size", "100000x100000"], ["a.jpg", "--size", "-5x3"], ["a.jpg", "--size=-5x3"],
        ["a.jpg", "--cols", "1001"], ["a.jpg", "--rows", "-1"], ["a.jpg", "--timeout", "1e9"],
        ["a.jpg", "--cell-aspect", "100"],
    ]

    /// Every property of a command with its value, as ArgumentParser's wrappers describe it ("Option(*definition*)"
    /// for one never given a value).
    func values(_ command: RenderCommand) -> [String] {
        Mirror(reflecting: command).children.map { "\($0.label ?? "?") = \($0.value)" }
    }

    @Test(arguments: taken)
    func takesWhatArgumentParserTakesTheSameWay(_ arguments: [String]) throws {
        let quick = try #require(RenderCommand(quickParsing: arguments))
        let full = try #require(try RenderCommand.parseAsRoot(arguments) as? RenderCommand)
        #expect(values(quick) == values(full))
        #expect(!values(quick).contains { $0.contains("*definition*") })
    }

    @Test(arguments: leftAlone)
    func leavesTheRestToArgumentParser(_ arguments: [String]) {
        #expect(RenderCommand(quickParsing: arguments) == nil)
    }

    /// The quick parser's names are the options ArgumentParser finds in `RenderCommand`, flags as flags: an option
    /// added to the command and not to `quickOptions` fails here, not only by going the slow way.
    @Test func knowsExactlyTheOptionsArgumentParserFinds() throws {
        let declared = try QuickParseAgreement.declaredOptions(of: RenderCommand.self)
        #expect(declared.count >= 10, "\(declared)")
        #expect(declared == QuickParseAgreement.quickNames(RenderCommand.quickOptions))
    }
}
