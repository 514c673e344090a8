import FoundationEssentials

/// The bytes that set the terminal's clipboard: OSC 52 (xterm's "manipulate selection data"), wrapped for tmux when
/// the program runs inside it.
///
/// Inside tmux two copies go out: the plain OSC 52, which tmux takes as a paste buffer and passes to the outer
/// terminal when `set-clipboard` is `on` (tmux's default, `external`, ignores it from programs), and the same
/// wrapped in tmux's DCS passthrough (`ESC P tmux; … ESC \`, every ESC inside doubled), which reaches the outer
/// terminal when `allow-passthrough` is on (tmux 3.3+). Either setting makes the copy work; both do no harm.
public enum Clipboard {
    /// OSC 52 setting the clipboard (`c`) to `text`, base64-encoded, ended by BEL.
    public static func osc52(_ text: String) -> [UInt8] {
        osc52(bytes: Array(text.utf8))
    }

    /// OSC 52 setting the clipboard to these bytes (a file's path need not be UTF-8).
    public static func osc52(bytes: [UInt8]) -> [UInt8] {
        Array("\u{1B}]52;c;\(Data(bytes).base64EncodedString())\u{07}".utf8)
    }

    /// What to send to copy `text`: the OSC 52, and inside tmux its passthrough copy as well.
    public static func sequence(copying text: String, insideTmux: Bool) -> [UInt8] {
        sequence(copying: Array(text.utf8), insideTmux: insideTmux)
    }

    /// What to send to copy these bytes.
    public static func sequence(copying bytes: [UInt8], insideTmux: Bool) -> [UInt8] {
        let osc = osc52(bytes: bytes)
        guard insideTmux else { return osc }
        let doubled = osc.flatMap { $0 == 0x1B ? [0x1B, 0x1B] : [$0] }
        return osc + Array("\u{1B}Ptmux;".utf8) + doubled + Array("\u{1B}\\".utf8)
    }
}
