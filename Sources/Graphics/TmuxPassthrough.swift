/// Wrapping for tmux's passthrough: bytes meant for the terminal outside tmux, which tmux would otherwise swallow or
/// answer itself.
public enum TmuxPassthrough {
    private static let escape: UInt8 = 0x1B

    /// `ESC P tmux ; <bytes with every ESC doubled> ESC \`: tmux (3.3+ with `allow-passthrough` on) hands the inner
    /// bytes to the outer terminal unchanged.
    public static func wrap(_ bytes: [UInt8]) -> [UInt8] {
        var wrapped: [UInt8] = [escape, UInt8(ascii: "P")] + Array("tmux;".utf8)
        wrapped.reserveCapacity(bytes.count + bytes.count / 16 + 10)
        for byte in bytes {
            wrapped.append(byte)
            if byte == escape { wrapped.append(escape) }
        }
        wrapped += [escape, UInt8(ascii: "\\")]
        return wrapped
    }

    /// The bytes as they must be written: wrapped inside tmux, as they are elsewhere.
    public static func prepare(_ bytes: [UInt8], insideTmux: Bool) -> [UInt8] {
        insideTmux ? wrap(bytes) : bytes
    }
}
