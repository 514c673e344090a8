/// Makes untrusted text safe to show in a terminal.
///
/// Titles, fields, URLs and server messages come from the network. A raw ESC, CSI, OSC (OSC 52 writes the
/// clipboard), BEL, CR or C1 control would let that text move the cursor, retitle the window or worse, so every
/// control character is shown in caret notation instead (`^[` for ESC, `^M` for CR, `<U+009B>` for C1 CSI).
public enum TerminalText {
    /// Whether the terminal can show non-ASCII glyphs (false under a non-UTF-8 locale).
    /// Set once at start-up, before any drawing, from the main thread.
    nonisolated(unsafe) public static var unicodeAvailable = true

    /// The text with every control character made visible. Tabs become a single space.
    public static func visible(_ text: String) -> String {
        // Fast path: most titles have no controls at all.
        if !text.unicodeScalars.contains(where: isControl) {
            return unicodeAvailable ? text : asciiOnly(text)
        }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v == 0x09 {
                out.append(" ")
            } else if v < 0x20 {
                out.append("^")
                out.append(Unicode.Scalar(UInt8(v + 0x40)))
            } else if v == 0x7F {
                out.append(contentsOf: "^?".unicodeScalars)
            } else if isControl(scalar) {
                out.append(contentsOf: "<U+\(String(v, radix: 16, uppercase: true).leftPadded(to: 4))>".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        let s = String(out)
        return unicodeAvailable ? s : asciiOnly(s)
    }

    /// Controls that must never reach the terminal: C0, DEL, C1, and the bidi overrides and isolates that
    /// can reorder what follows them on the line.
    static func isControl(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return v < 0x20 || (v >= 0x7F && v < 0xA0) || (v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069)
            || v == 0x2028 || v == 0x2029
    }

    /// Non-ASCII made ASCII (for a terminal whose locale is not UTF-8): common punctuation by its ASCII look-alike,
    /// the rest as `?`.
    static func asciiOnly(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= 0x80 }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 {
                out.append(scalar)
            } else if let ascii = asciiLookAlikes[scalar] {
                out.append(contentsOf: ascii.unicodeScalars)
            } else if scalar.properties.generalCategory == .nonspacingMark {
                continue
            } else {
                out.append("?")
            }
        }
        return String(out)
    }

    private static let asciiLookAlikes: [Unicode.Scalar: String] = [
        "·": ".", "•": "*", "…": "...", "—": "-", "–": "-", "‘": "'", "’": "'", "“": "\"", "”": "\"",
        "▌": ">", "▏": "_", "✗": "x", "⚠": "!", "↑": "^", "↓": "v", "\u{00A0}": " ",
    ]
}

extension String {
    func leftPadded(to n: Int) -> String {
        count >= n ? self : String(repeating: "0", count: n - count) + self
    }
}
