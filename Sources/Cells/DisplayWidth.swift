extension Character {
    /// The number of terminal columns this character takes: 0, 1 or 2 (like wcwidth, by its first scalar).
    ///
    /// Our own table rather than libc's `wcwidth`, whose answer depends on the process locale and which knows no
    /// emoji in the C locale: the layout must not change with the environment.
    public var displayWidth: Int {
        guard let first = unicodeScalars.first else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
        // An emoji presentation selector turns a text-default symbol into a wide emoji.
        if unicodeScalars.count > 1, unicodeScalars.contains(where: { $0.value == 0xFE0F }),
           first.properties.isEmoji { return 2 }
        return first.displayWidth
    }
}

extension Unicode.Scalar {
    /// Columns for one scalar: 0 for combining and format characters, 2 for East Asian wide and emoji.
    public var displayWidth: Int {
        let v = value
        if v == 0 { return 0 }
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
        if v < 0x300 { return 1 }
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v >= 0x1160 && v <= 0x11FF { return 0 }  // Hangul medial vowels and final consonants combine
        if properties.isEmojiPresentation { return 2 }
        return Self.isEastAsianWide(v) ? 2 : 1
    }

    private static func isEastAsianWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

extension String {
    /// The number of terminal columns the string takes once made visible.
    public var displayWidth: Int {
        if let width = printableASCIIWidth { return width }
        return TerminalText.visible(self).reduce(0) { $0 + $1.displayWidth }
    }

    /// The string's length when every byte is printable ASCII (space to tilde), else nil: then each byte is one
    /// character one column wide, with nothing to make visible. Most titles and paths are; reading the bytes costs
    /// a few instructions each, where a `Character` is found by grapheme breaking (a one-shot pick of ten paths spent
    /// 0.9 M of its 11.7 M instructions measuring and cutting its text).
    var printableASCIIWidth: Int? {
        var count = 0
        for byte in utf8 {
            guard byte >= 0x20, byte < 0x7F else { return nil }
            count += 1
        }
        return count
    }
}
