import Cells

/// The fuzz target for the escaping every untrusted string goes through before a terminal or stream sees it.
enum TextFuzzing {
    static let target = FuzzTarget(name: "text",
                                   summary: "TerminalText.visible on any bytes read as UTF-8, both locales") {
        bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        for unicode in [true, false] {
            TerminalText.unicodeAvailable = unicode
            let shown = TerminalText.visible(text)
            for scalar in shown.unicodeScalars {
                let code = "U+" + String(scalar.value, radix: 16, uppercase: true)
                promise(!isControl(scalar), "visible() let \(code) through")
                promise(unicode || scalar.isASCII, "visible() let \(code) through to an ASCII terminal")
            }
        }
        TerminalText.unicodeAvailable = true
    }

    /// What TerminalText's documentation promises never reaches the terminal: C0, DEL, C1, the bidi overrides and
    /// isolates, the line and paragraph separators. Written out here so that the check shares no code with what it
    /// checks.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }
}
