import FoundationEssentials
import Glibc

/// The command line as the kernel gave it, bytes and all.
///
/// `CommandLine.arguments` replaces bytes that are not UTF-8 with U+FFFD, so a file named that way would be looked for
/// under another name ("no such file" for a file that is there), and a `--cache-dir` or `--stats-file` would be
/// created under another name. Such an argument is refused up front instead.
enum RawArguments {
    /// The arguments after the program's name, as bytes.
    static var current: [[UInt8]] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeBufferPointer(start: argument, count: strlen(argument))).map { UInt8(bitPattern: $0) }
        }
    }

    /// The message for the first argument that is not UTF-8, or nil when every one is.
    static func notUTF8(in arguments: [[UInt8]]) -> String? {
        guard let index = arguments.firstIndex(where: { String(validating: $0, as: UTF8.self) == nil }) else {
            return nil
        }
        return "argument \(index + 1), '\(String(decoding: arguments[index], as: UTF8.self))', is not UTF-8 (\u{FFFD} "
            + "marks the bytes that are not): thumbtable takes names in UTF-8 only and would use another name; rename "
            + "the file or folder (e.g. with convmv)"
    }
}
