/// The table as a picker (`thumbtable pick`, a browsing command's `--pick`): Enter chooses the selected item, and
/// with `multi` Tab (Space in the grid) marks items to choose together. The status line says so.
public struct Picking: Sendable, Equatable {
    /// Whether items can be marked, and Enter chooses the marked ones.
    public var multi: Bool

    public init(multi: Bool = false) {
        self.multi = multi
    }

    /// The list's key hint while picking, in its forms, longest first (see `StatusLine`).
    var hints: [String] {
        multi ? ["Enter picks · Tab marks · / filter · Esc cancels · ? help", "Enter picks · Tab marks · Esc cancels",
                 "Enter · Tab · Esc"]
            : ["Enter picks · / filter · Esc cancels · ? help", "Enter picks · Esc cancels", "Enter · Esc"]
    }
}
