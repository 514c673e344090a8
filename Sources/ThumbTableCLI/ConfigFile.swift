import Basics
import FoundationEssentials
import LocalFiles
#if canImport(Glibc)
import Glibc
#endif

/// The config file, `$XDG_CONFIG_HOME/thumbtable/config.toml` (else `~/.config/thumbtable/config.toml`): the
/// defaults a user sets once, read as a strict subset of TOML.
///
/// No TOML package can be fetched here (SwiftPM reaches no Swift package registry from this machine), so the file is
/// read by this small parser: `key = value` lines with strings ("…" with `\"` `\\` `\t` `\n` `\uXXXX` escapes, or
/// '…'), integers, decimals and booleans, `#` comments and blank lines. Tables, arrays, dates and multi-line strings
/// are refused with the line they are on: every file it accepts means the same in TOML.
struct ConfigFile: Equatable {
    /// A value as the file wrote it.
    enum Value: Equatable, CustomStringConvertible {
        case string(String)
        case integer(Int)
        case number(Double)
        case boolean(Bool)

        var description: String {
            switch self {
            case .string(let s): "\"\(s)\""
            case .integer(let n): "\(n)"
            case .number(let x): "\(x)"
            case .boolean(let b): "\(b)"
            }
        }
    }

    struct Entry: Equatable {
        var key: String
        var value: Value
        var line: Int
    }

    /// Why the file cannot be used: the file, the line and what is wrong there, and what to do.
    struct Problem: Error, Equatable, CustomStringConvertible {
        var path: String
        var line: Int?
        var message: String
        var description: String {
            "\(path)\(line.map { ":\($0)" } ?? ""): \(message)"
        }
    }

    let path: String
    let entries: [Entry]

    /// The largest config file read: far more than any set of defaults needs.
    static let maxBytes = 64 << 10

    /// Where the file is looked for: `$XDG_CONFIG_HOME` when set to an absolute path (the XDG base directory
    /// spec ignores a relative one), else `$HOME/.config`; nil without either.
    static func location(environment: [String: String]) -> String? {
        location { environment[$0] }
    }

    /// The same, with each variable read by `variable`.
    static func location(_ variable: (String) -> String?) -> String? {
        if let config = variable("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            return config + "/thumbtable/config.toml"
        }
        guard let home = variable("HOME"), !home.isEmpty else { return nil }
        return home + "/.config/thumbtable/config.toml"
    }

    /// The process's environment variable `name`, read alone: ProcessInfo's whole environment, made into a
    /// dictionary, cost a one-shot pick 1.4 M of its 31.7 M instructions (issue 27).
    static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The file at `path`, or nil when there is none; a file that cannot be read or parsed is a problem.
    static func load(_ path: String) throws(Problem) -> ConfigFile? {
        let local = LocalPath(path)
        if case .missing = LocalFile.kind(of: local) { return nil }
        let bytes: [UInt8]
        do {
            bytes = try LocalFile.read(local, limit: maxBytes)
        } catch {
            throw Problem(path: path, line: nil, message: "cannot be read: \(error.shortReason)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Problem(path: path, line: nil, message: "is not UTF-8 text (TOML files are)")
        }
        return try ConfigFile(path: path, text: text)
    }

    init(path: String, text: String) throws(Problem) {
        self.path = path
        var entries: [Entry] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            do throws(ConfigSyntax.Failure) {
                guard let (key, value) = try ConfigSyntax.parse(line) else { continue }
                // `thumb_size` and `thumb-size` name one option (ConfigDefaults reads `_` as `-`).
                if let first = entries.first(where: { Self.option($0.key) == Self.option(key) }) {
                    let spelled = first.key == key ? "" : " as \(first.key)"
                    throw ConfigSyntax.Failure("\(key) is set twice (first on line \(first.line)\(spelled)); keep one")
                }
                entries.append(Entry(key: key, value: value, line: number))
            } catch {
                throw Problem(path: path, line: number, message: error.message)
            }
        }
        self.entries = entries
    }

    /// The option a key names: `_` and `-` are the same.
    static func option(_ key: String) -> String {
        key.replacing("_", with: "-")
    }
}

/// One line of the config file's TOML subset: a comment, a blank, or `key = value`.
enum ConfigSyntax {
    struct Failure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// The key and value on a line, or nil for a blank or comment line.
    static func parse(_ line: Substring) throws(Failure) -> (String, ConfigFile.Value)? {
        let text = line.drop { $0 == " " || $0 == "\t" }
        if text.isEmpty || text.hasPrefix("#") { return nil }
        if text.hasPrefix("[") {
            throw Failure("tables ([section]) are not read; put every key at the top level")
        }
        guard let equals = text.firstIndex(of: "=") else {
            throw Failure("expected key = value, got \"\(excerpt(text))\"")
        }
        let key = text[..<equals].trimmingSpaces()
        guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else {
            throw Failure("\"\(excerpt(key))\" is not a key: use letters, digits, - and _ (quoted and dotted keys are not read)")
        }
        var rest = text[text.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
        let value = try parseValue(&rest)
        let after = rest.drop { $0 == " " || $0 == "\t" }
        guard after.isEmpty || after.hasPrefix("#") else {
            throw Failure("unexpected \"\(excerpt(after))\" after the value of \(excerpt(key))")
        }
        // A C string ends at NUL: a path or option holding one would be cut short where it is used, not refused.
        if case .string(let text) = value, text.unicodeScalars.contains("\0") {
            throw Failure("the value of \(excerpt(key)) holds a NUL character (\\u0000), which no path or option can carry")
        }
        return (key, value)
    }

    /// The longest piece of the file a message quotes: a 60 KB key or value is cut, its length said.
    static let maxExcerpt = 60

    /// `text` as a message quotes it: whole when short, else its start and how long it is.
    static func excerpt(_ text: some StringProtocol) -> String {
        guard text.count > maxExcerpt else { return String(text) }
        return "\(text.prefix(maxExcerpt))… (\(text.count) characters)"
    }

    /// Reads one value from the start of `text`, leaving what follows it.
    static func parseValue(_ text: inout Substring) throws(Failure) -> ConfigFile.Value {
        guard let first = text.first else { throw Failure("a key needs a value after =") }
        if first == "\"" { return .string(try basicString(&text)) }
        if first == "'" {
            if text.hasPrefix("'''") { throw Failure("multi-line strings are not read; use one line") }
            let body = text.dropFirst()
            guard let close = body.firstIndex(of: "'") else { throw Failure("the string has no closing '") }
            text = body[body.index(after: close)...]
            return .string(String(body[..<close]))
        }
        if first == "[" || first == "{" { throw Failure("arrays and inline tables are not read; give one value") }
        let word = text.prefix { $0 != " " && $0 != "\t" && $0 != "#" }
        text = text[word.endIndex...]
        if word == "true" { return .boolean(true) }
        if word == "false" { return .boolean(false) }
        let digits = word.replacing("_", with: "")
        if let integer = Int(digits), word.allSatisfy({ $0.isNumber || "+-_".contains($0) }) { return .integer(integer) }
        if let number = Double(digits), digits.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }) {
            return .number(number)
        }
        throw Failure("\"\(excerpt(word))\" is not a value: quote a string (\"…\"), or give a number, true or false")
    }

    /// A "…" string with TOML's escapes, from the start of `text`.
    static func basicString(_ text: inout Substring) throws(Failure) -> String {
        if text.hasPrefix("\"\"\"") { throw Failure("multi-line strings are not read; use one line") }
        var out = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let c = text[index]
            index = text.index(after: index)
            switch c {
            case "\"":
                text = text[index...]
                return out
            case "\\":
                guard index < text.endIndex else { break }
                let escape = text[index]
                index = text.index(after: index)
                switch escape {
                case "\"": out.append("\"")
                case "\\": out.append("\\")
                case "t": out.append("\t")
                case "n": out.append("\n")
                case "u":
                    let hex = text[index...].prefix(4)
                    guard hex.count == 4, let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                        throw Failure("\\u needs four hex digits of a Unicode scalar")
                    }
                    out.unicodeScalars.append(scalar)
                    index = hex.endIndex
                default: throw Failure("\\\(escape) is not an escape this file reads (\\\" \\\\ \\t \\n \\uXXXX)")
                }
            default:
                out.append(c)
            }
        }
        throw Failure("the string has no closing \"")
    }
}
