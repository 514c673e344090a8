import Table
import Terminal

/// What a key does: one case per thing the user can ask for, performed on the table (`KeyBindings.perform`).
enum KeyAction: Equatable {
    /// How far a key scrolls a text (the panes', the help's).
    enum TextStep: Equatable {
        /// Lines down (negative: up).
        case lines(Int)
        /// Screens of the text down (negative: up).
        case pages(Int)
        /// To the end (positive) or the top (negative).
        case end(Int)
    }

    case move(Int), moveAcross(Int), page(Double), home, end
    case open, back
    /// The next or previous item in the detail pane.
    case adjacent(Int)
    /// The next or previous item when the pane's text fits (nothing to scroll), else a line of it.
    case adjacentWhenTextFits(Int)
    case scroll(TextStep)
    /// Pauses or plays the detail pane's animation; without one, scrolls the text a page (Space).
    case pauseAnimation
    case beginFilter, keepFilter, clearFilter, deleteFilterBackward
    case help, retry, retryPage, removeFromCache, reuseOverlay, prefetchAll, switchLayout, switchCompact, zoom(Int)
    case redraw
    /// The actions on the selected item (`ItemActions`): off where there are none (`demo --compare`).
    case saveOriginal, saveArt, openLink, copyLink
    /// While picking (`Picking`): choose the selected or marked items and end; mark or unmark the selected item
    /// (with `multi` only); clear a kept filter, else end without a choice.
    case pick, toggleMark, cancelPick
    case suspend, quit(Int32)

    /// Whether the action works on every screen, the filter and the help included, before any other key.
    var worksEverywhere: Bool {
        switch self {
        case .suspend, .quit(130): true
        default: false
        }
    }

    /// Whether the action is one of `ItemActions`.
    var isItemAction: Bool {
        [.saveOriginal, .saveArt, .openLink, .copyLink].contains(self)
    }

    /// The lines this step scrolls, for a text `page` lines high.
    static func lines(_ step: TextStep, page: Int) -> Int {
        switch step {
        case .lines(let count): count
        case .pages(let count): count * page
        case .end(let direction): direction * Int(Int32.max)
        }
    }
}
