/// Word wrapping and truncation by display width (wide characters count two columns).
public enum TextWrap {
    /// Breaks text into lines of at most `width` columns at spaces, breaking long words where they must,
    /// keeping at most `maxLines` lines; when text is cut, the last line ends with an ellipsis.
    public static func lines(_ text: String, width: Int, maxLines: Int = .max) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        let visible = TerminalText.visible(text)
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        var truncated = false

        func flush() {
            lines.append(current)
            current = ""
            currentWidth = 0
        }

        outer: for word in visible.split(separator: " ", omittingEmptySubsequences: true) {
            let wordWidth = String(word).displayWidth
            if currentWidth > 0 && currentWidth + 1 + wordWidth <= width {
                current += " " + word
                currentWidth += 1 + wordWidth
                continue
            }
            if currentWidth > 0 {
                flush()
                if lines.count == maxLines { truncated = true; break }
            }
            if wordWidth <= width {
                current = String(word)
                currentWidth = wordWidth
                continue
            }
            // A word longer than the line: break it by columns.
            for character in word {
                let w = character.displayWidth
                if currentWidth + w > width {
                    flush()
                    if lines.count == maxLines { truncated = true; break outer }
                }
                current.append(character)
                currentWidth += w
            }
        }
        if !truncated && currentWidth > 0 { flush() }
        if lines.count > maxLines { lines.removeLast(lines.count - maxLines); truncated = true }
        if truncated, let last = lines.popLast() {
            lines.append(truncate(last + " …", width: width))
        }
        return lines.isEmpty ? [""] : lines
    }

    /// The text cut to `width` columns, ending with an ellipsis when cut.
    public static func truncate(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        let ellipsis: Character = TerminalText.unicodeAvailable ? "…" : "~"
        if let length = text.printableASCIIWidth {
            // A column a byte, and already visible.
            guard length > width else { return text }
            return String(decoding: text.utf8.prefix(width - 1), as: UTF8.self) + String(ellipsis)
        }
        let visible = TerminalText.visible(text)
        if visible.displayWidth <= width { return visible }
        var out = ""
        var used = 0
        for character in visible {
            let w = character.displayWidth
            if used + w > width - 1 { break }
            out.append(character)
            used += w
        }
        out.append(ellipsis)
        return out
    }
}
