/// The questions detection asks the terminal at start-up, written in one go, the primary device attributes last.
///
/// Terminals answer in order, and every terminal answers DA1, so its reply marks the end: whatever did not answer
/// before it does not know the question.
public enum TerminalQueries {
    /// The id of the kitty query image; its reply carries it back.
    public static let kittyQueryID = 31

    /// kitty's support query: a 1x1 RGB image loaded and not kept (`a=q`), answered `OK` or with an error.
    /// No `q=`: the answer is the point.
    public static let kittyQuery = apc("Gi=\(kittyQueryID),s=1,v=1,a=q,t=d,f=24;AAAA")
    /// The id of the placeholder query image.
    public static let kittyPlaceholderQueryID = 32
    /// The same query with `U=1`, the key of Unicode placeholders: kitty 0.28+ and Ghostty answer it `OK`; kitty
    /// before 0.28 rejects a control block with a key it does not know and answers nothing, so its DA1 comes first.
    /// Terminals that read keys loosely (WezTerm) answer it too: the version is the second witness.
    public static let kittyPlaceholderQuery = apc("Gi=\(kittyPlaceholderQueryID),s=1,v=1,a=q,t=d,f=24,U=1;AAAA")
    /// XTSMGRAPHICS: the number of sixel colour registers, and the largest sixel image.
    public static let sixelColors = csi("?1;1;0S")
    public static let sixelGeometry = csi("?2;1;0S")
    /// The size of a cell in pixels: answered `CSI 6 ; height ; width t`.
    public static let cellSize = csi("16t")
    /// XTVERSION: the terminal's name and version, answered `DCS > | name ST`.
    public static let version = csi(">q")
    /// Primary device attributes: answered by every terminal, so it ends the detection.
    public static let primaryAttributes = csi("c")

    /// The queries for a request, each wrapped for tmux's passthrough inside tmux (tmux would answer DA1 itself
    /// and swallow the rest). `auto` asks everything; a forced protocol asks only the cell size (and a sixel
    /// terminal's geometry); `text` asks nothing.
    public static func bytes(for request: GraphicsRequest, insideTmux: Bool) -> [UInt8] {
        let queries: [[UInt8]]
        switch request {
        case .auto:
            queries = [kittyQuery, kittyPlaceholderQuery, sixelColors, sixelGeometry, cellSize, version,
                       primaryAttributes]
        case .forced(.text):
            queries = []
        case .forced(.sixel):
            queries = [sixelColors, sixelGeometry, cellSize, primaryAttributes]
        case .forced:
            queries = [cellSize, primaryAttributes]
        }
        return queries.flatMap { TmuxPassthrough.prepare($0, insideTmux: insideTmux) }
    }

    static func csi(_ body: String) -> [UInt8] { [0x1B, UInt8(ascii: "[")] + Array(body.utf8) }
    static func apc(_ body: String) -> [UInt8] { [0x1B, UInt8(ascii: "_")] + Array(body.utf8) + [0x1B, 0x5C] }
}
