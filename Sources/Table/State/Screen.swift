/// What is showing: the one answer the keys, the status line, the header and the frame read.
///
/// The reuse overlay (`s`) and the batch's progress bar are not screens: they show over any of them.
public enum Screen: Sendable {
    /// The rows, or the grid; keys move the selection.
    case list
    /// The rows, with keys typing the filter on the status line (`/`).
    case filter
    /// The detail pane on one item (Enter).
    case detail(DetailPane)
    /// The pane on the row of a failed page, with the whole reason (Enter on that row).
    case pageFailure(PageFailurePane)
    /// The keys' help (`?`) over the screen beneath it, which shows again when the help closes.
    indirect case help(over: Screen)

    /// The screen the help covers; the screen itself when no help shows.
    public var beneath: Screen {
        if case .help(let screen) = self { screen.beneath } else { self }
    }

    /// The detail pane open (under the help, if it shows), or nil.
    public var detail: DetailPane? {
        if case .detail(let pane) = beneath { pane } else { nil }
    }

    /// The failed page's pane open (under the help, if it shows), or nil.
    public var pageFailure: PageFailurePane? {
        if case .pageFailure(let pane) = beneath { pane } else { nil }
    }

    /// Which case this is (the help counting apart from the screen under it), for a frame model's basis.
    var kind: Int {
        switch self {
        case .list: 0
        case .filter: 1
        case .detail: 2
        case .pageFailure: 3
        case .help(let beneath): 4 + beneath.kind
        }
    }

    /// Whether the help shows.
    public var isHelp: Bool {
        if case .help = self { true } else { false }
    }

    /// Whether keys type the filter.
    public var isFilter: Bool {
        if case .filter = self { true } else { false }
    }

    /// Whether the rows show with nothing over them that takes keys (`q` quits here at once).
    public var isList: Bool {
        if case .list = self { true } else { false }
    }
}
