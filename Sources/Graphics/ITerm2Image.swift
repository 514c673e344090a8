/// The iTerm2 inline image escape (OSC 1337 File=), which iTerm2, WezTerm, mintty and Konsole draw at the cursor.
///
/// The payload is an encoded image file (PNG, JPEG or GIF), not raw pixels; the terminal decodes it and scales it
/// into the given box of cells, keeping its aspect ratio.
public enum ITerm2Image {
    /// The escape that draws `file` (the bytes of an image file) fitted into `columns` x `rows` cells.
    ///
    /// Ends with BEL rather than ST: imgcat does, and tmux's passthrough and older iTerm2 versions expect it.
    public static func sequence(file: [UInt8], columns: Int, rows: Int) -> [UInt8] {
        var out = Array("\u{1B}]1337;File=inline=1;size=\(file.count);width=\(columns);height=\(rows);".utf8)
        out += Array("preserveAspectRatio=1:".utf8)
        out += Base64.encode(file)
        out.append(0x07)
        return out
    }
}
