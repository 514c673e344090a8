import Basics
import FoundationEssentials

/// A file name for something saved from an untrusted item: its URL's last path component, else its title, made
/// safe to create in a folder and to show.
///
/// The name holds no path separator, no control or format character (bidi overrides included), no leading dot
/// (hidden files, `.` and `..`) and no leading dash (it would read as an option to the next command); it is at most
/// `maxBytes` bytes of UTF-8, so the `-N` and extension added later still fit the file system's 255.
public enum SafeFileName {
    /// The longest stem kept, in bytes of UTF-8.
    public static let maxBytes = 100
    /// The stem when nothing usable is left.
    public static let fallback = "image"

    /// The stem for an item's image: the URL's last path component (percent escapes decoded, its extension
    /// dropped, since the saved file gets the extension of the format its bytes are in), else the title.
    public static func stem(url: URL?, title: String) -> String {
        if let url, let last = lastComponent(of: url) {
            let cleaned = clean(dropExtension(last))
            if cleaned != fallback { return cleaned }
        }
        return clean(title)
    }

    /// The last non-empty path component of a URL, decoded, or nil.
    static func lastComponent(of url: URL) -> String? {
        let path = url.path(percentEncoded: true)
        guard let last = path.split(separator: "/").last else { return nil }
        return last.percentDecoded ?? String(last)
    }

    /// The name without a short alphanumeric extension (`.jpeg`, `.png`); a longer tail after a dot is kept.
    static func dropExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        let tail = name[name.index(after: dot)...]
        guard (1...5).contains(tail.count), tail.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return name
        }
        return String(name[..<dot])
    }

    /// Letters that draw nothing: the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), which Unicode files as
    /// letters. A name of them alone would look empty.
    static let invisibleLetters: Set<Unicode.Scalar> = ["\u{115F}", "\u{1160}", "\u{3164}", "\u{FFA0}"]

    /// Letters, digits, marks on a letter or digit, and `-_.+` kept; anything else (separators, controls, spaces,
    /// quotes, invisible letters, marks with nothing to sit on) becomes `_`, runs of `_` one; leading dots, dashes
    /// and underscores and trailing dots and underscores go; cut to `maxBytes` on a character boundary; `fallback`
    /// when nothing visible is left.
    public static func clean(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            let isMark = category == .nonspacingMark || category == .spacingMark
            let base = out.unicodeScalars.last.map { !"-_.+".unicodeScalars.contains($0) } ?? false
            let kept = "-_.+".unicodeScalars.contains(scalar)
                || isMark && base
                || !invisibleLetters.contains(scalar)
                    && [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                        .decimalNumber, .letterNumber, .otherNumber].contains(category)
            let next: Unicode.Scalar = kept ? scalar : "_"
            if next == "_", out.unicodeScalars.last == "_" { continue }
            out.unicodeScalars.append(next)
        }
        var trimmed = Substring(out).drop { ".-_".contains($0) }
        while let last = trimmed.last, "._".contains(last) { trimmed = trimmed.dropLast() }
        var result = ""
        for character in trimmed {
            guard result.utf8.count + character.utf8.count <= maxBytes else { break }
            result.append(character)
        }
        while let last = result.last, "._".contains(last) { result.removeLast() }
        return result.isEmpty ? fallback : result
    }
}
