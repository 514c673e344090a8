import Table

extension TerminalPictures {
    /// Spaces in the default colours over every cell of `footprints`: text written over a sixel or iTerm2 picture's
    /// cells is what erases it. The cursor and its colours are saved before (DECSC) and restored after (DECRC), so
    /// curses' idea of both stays true; the lines are then repainted by curses with what they hold.
    static func blanks(over footprints: [PictureFootprint]) -> [UInt8] {
        guard !footprints.isEmpty else { return [] }
        var bytes = Array("\u{1B}7\u{1B}[0m".utf8)
        for footprint in footprints where footprint.columns > 0 {
            for line in footprint.lines {
                bytes += Array("\u{1B}[\(line + 1);\(footprint.x + 1)H".utf8)
                bytes += [UInt8](repeating: 0x20, count: footprint.columns)
            }
        }
        return bytes + Array("\u{1B}8".utf8)
    }
}

extension PictureFootprint {
    /// The screen lines it covers.
    var lines: Range<Int> { y..<(y + rows) }
}
