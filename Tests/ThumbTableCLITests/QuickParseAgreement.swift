import ArgumentParser
import Foundation
import Testing
@testable import ThumbTableCLI

/// What the quick parsers' tests share: the options ArgumentParser finds in a command, and a command's values.
enum QuickParseAgreement {
    /// The long names of the options ArgumentParser finds in `command` and its option groups (hidden ones too, help
    /// not), each true for a flag.
    static func declaredOptions(of command: any ParsableCommand.Type) throws -> [String: Bool] {
        let dump = try #require(try JSONSerialization.jsonObject(with: Data(command._dumpHelp().utf8))
            as? [String: Any])
        let described = try #require(dump["command"] as? [String: Any])
        let arguments = try #require(described["arguments"] as? [[String: Any]])
        var declared: [String: Bool] = [:]
        for argument in arguments {
            guard let kind = argument["kind"] as? String, kind != "positional",
                  let names = argument["names"] as? [[String: String]],
                  let long = names.first(where: { $0["kind"] == "long" })?["name"], long != "help" else { continue }
            declared[long] = kind == "flag"
        }
        return declared
    }

    /// The quick parser's names, each true for a flag; fails the test when one is given twice.
    static func quickNames<Target>(_ options: [(name: String, option: QuickOption<Target>)]) -> [String: Bool] {
        let names = options.map { (name: $0.name, isFlag: $0.option.isFlag) }
        #expect(Set(names.map(\.name)).count == names.count, "a name given twice")
        return Dictionary(names, uniquingKeysWith: { first, _ in first })
    }

    /// Checks that the quick parser of a command with the display options (`own` its own options) knows exactly the
    /// options ArgumentParser finds in `command` and its groups, flags as flags, at least `atLeast` of them, and that
    /// `cases` has a case for each: an option added to the command and not to the quick parser fails here, not only
    /// by going the slow way.
    static func expectKnowsTheDeclaredOptions<Command>(
        of command: any ParsableCommand.Type, own: [(name: String, option: QuickOption<Command>)],
        cases: [String: [String]], atLeast: Int
    ) throws {
        let declared = try declaredOptions(of: command)
        #expect(declared.count >= atLeast, "\(declared)")
        let quick = quickNames(own).merging(quickNames(DisplayParts.quickOptions)) { first, _ in first }
        #expect(declared == quick)
        #expect(Set(declared.keys) == Set(cases.keys))
    }

    /// Every property of a command with its value, option groups included, as ArgumentParser's wrappers describe
    /// it ("*definition*" for one never given a value).
    static func values(_ command: some ParsableArguments) -> String {
        String(describing: command)
    }
}
