import Table
import Terminal

/// Maps what the user does to what the table does. Follows less and vim habits.
@MainActor
enum KeyBindings {
    enum Outcome: Equatable {
        case handled
        /// End the program with this exit status (0 for q, 130 for Ctrl-C, as a shell reports SIGINT).
        case quit(Int32)
        /// Stop the program until the shell continues it (Ctrl-Z, which raw mode delivers as a key).
        case suspend
    }

    /// - Parameter actions: what `w`, `W`, `o` and `y` do (save, open, copy); nil where they do nothing (the
    ///   split screen of `demo --compare`).
    static func handle(_ event: InputEvent, table: TableController, terminalSize: Terminal.Size,
                       actions: ItemActions? = nil) -> Outcome {
        switch event {
        case .resize:
            table.resize(columns: terminalSize.columns, rows: terminalSize.rows)
            return .handled
        case .signal:
            // The app's loop handles signals before keys.
            return .handled
        case .mouse(let mouse):
            table.stopFollowingEnd()
            return handle(mouse, table: table)
        case .key(let key):
            // Any key stops G's following of the end (G itself starts it again).
            table.stopFollowingEnd()
            if key == .control("c") { return .quit(130) }
            if key == .control("z") { return .suspend }
            if table.isBatchPrefetching, key == .escape {
                table.cancelBatchPrefetch()
                return .handled
            }
            table.dismissBatchProgress()
            table.clearNote()
            if table.showingHelp {
                // A help taller than the screen scrolls; any other key (any key at all when it fits) closes it.
                if table.helpScroll.isCut, let lines = scrollAmount(key, page: table.helpScroll.page) {
                    table.scrollHelp(by: lines)
                } else {
                    table.toggleHelp()
                }
                return .handled
            }
            if table.isEditingFilter { return handleFilter(key, table: table) }
            if let detail = table.detail { return handleDetail(key, detail: detail, table: table, actions: actions) }
            if let pane = table.pageFailure { return handlePageFailure(key, pane: pane, table: table) }
            if let actions, handleItemAction(key, table: table, actions: actions) { return .handled }
            return handleList(key, table: table, actionsOff: actions == nil)
        }
    }

    private static func handleList(_ key: Key, table: TableController, actionsOff: Bool) -> Outcome {
        if table.layoutMode == .grid, let across = acrossGrid(key) {
            table.moveAcross(by: across)
            return .handled
        }
        switch key {
        case .character("q"): return .quit(0)
        case .down, .character("j"): table.move(by: 1)
        case .up, .character("k"): table.move(by: -1)
        case .pageDown, .character(" "), .control("f"): table.page(by: 1)
        case .pageUp, .character("b"), .control("b"): table.page(by: -1)
        case .control("d"): table.page(by: 0.5)
        case .control("u"): table.page(by: -0.5)
        case .home, .character("g"): table.goHome()
        case .end, .character("G"): table.goEnd()
        case .enter, .right, .character("l"): table.openSelected()
        case .character("/"): table.beginFilter()
        case .character("?"), .function(1): table.toggleHelp()
        case .character("r"): table.retrySelected()
        case .character("d"): table.removeSelectedImageFromCache()
        case .character("s"): table.toggleReuseOverlay()
        case .character("P"): table.startBatchPrefetch()
        case .character("v"): table.toggleLayout()
        // = is + without Shift on most keyboards.
        case .character("+"), .character("="): table.zoom(by: 1)
        case .character("-"): table.zoom(by: -1)
        // Esc with nothing to clear stays quiet: it is pressed to be sure nothing is open, not to ask for something.
        case .escape: if !table.filter.isEmpty { table.clearFilter() }
        case .control("l"): table.redraw()
        default: table.say(noAction(key, in: table.layoutMode == .grid ? .grid : .list, actionsOff: actionsOff))
        }
        return .handled
    }

    /// Where a key was pressed that does nothing there, for `noAction`.
    enum Place {
        case list, grid, detailPane, failurePane
    }

    /// What the status line says of a key that does nothing where it was pressed, so no key is silent: where it
    /// works when it works elsewhere, else that it is no key; and that `?` lists them.
    static func noAction(_ key: Key, in place: Place, actionsOff: Bool = false) -> String {
        let name = keyName(key)
        let inList = place == .list || place == .grid
        let listKeys: Set<Key> = [.character("v"), .character("/"), .character("+"), .character("="),
                                  .character("-"), .character("P")]
        var elsewhere: String?
        if actionsOff, [.character("o"), .character("y"), .character("w"), .character("W")].contains(key) {
            elsewhere = "\(name) is off in demo --compare"
        } else if place == .list, key == .left || key == .character("h") {
            elsewhere = "\(name) moves across in the grid (v switches to it)"
        } else if inList, key == .character("n") || key == .character("p") {
            elsewhere = "\(name) shows the \(key == .character("n") ? "next" : "previous") item in the detail pane "
                + "(Enter opens it)"
        } else if inList, key == .backspace {
            elsewhere = "\(name) closes the detail pane (Enter opens it)"
        } else if place == .detailPane, listKeys.contains(key) {
            elsewhere = "\(name) works in the list (Esc goes back to it)"
        }
        return (elsewhere ?? "unknown key \(name)") + " · ? lists the keys"
    }

    /// A key as the help writes it: the character itself, Ctrl-X, Left, F5; the terminal's code for one curses
    /// does not name. The status line shows any control character in a character key visibly.
    static func keyName(_ key: Key) -> String {
        switch key {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .control(let letter): "Ctrl-" + letter.uppercased()
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .tab: "Tab"
        case .delete: "Delete"
        case .function(let number): "F\(number)"
        case .unknown(let code): "with code \(code)"
        }
    }

    /// How far a key moves across the grid (left and right), or nil when it does not.
    static func acrossGrid(_ key: Key) -> Int? {
        switch key {
        case .left, .character("h"): -1
        case .right, .character("l"): 1
        default: nil
        }
    }

    private static func handleFilter(_ key: Key, table: TableController) -> Outcome {
        switch key {
        case .escape: table.clearFilter()
        case .enter: table.endFilterEditing()
        case .backspace, .delete: table.editFilterDeleteBackward()
        case .down: table.move(by: 1)
        case .up: table.move(by: -1)
        case .character(let c): table.editFilter(appending: c)
        default: break
        }
        return .handled
    }

    /// How many lines a key scrolls a text by (the detail pane, the failure's pane, the help), or nil when it
    /// does not scroll.
    static func scrollAmount(_ key: Key, page: Int) -> Int? {
        switch key {
        case .down, .character("j"): 1
        case .up, .character("k"): -1
        case .pageDown, .character(" "), .control("d"), .control("f"): page
        case .pageUp, .character("b"), .control("u"), .control("b"): -page
        case .home, .character("g"): -Int(Int32.max)
        case .end, .character("G"): Int(Int32.max)
        default: nil
        }
    }

    /// Whether a key leaves a pane for the list.
    static func isBack(_ key: Key) -> Bool {
        [.escape, .character("q"), .backspace, .left, .character("h")].contains(key)
    }

    /// The keys that act on the selected item in the list and the detail pane alike (`o`, `y`, `w`, `W`). Returns
    /// whether the key was one of them.
    private static func handleItemAction(_ key: Key, table: TableController, actions: ItemActions) -> Bool {
        switch key {
        case .character("o"): actions.open(in: table)
        case .character("y"): actions.copyURL(in: table)
        case .character("w"): actions.saveOriginal(in: table)
        case .character("W"): actions.saveArt(in: table)
        default: return false
        }
        return true
    }

    /// How many items a key moves the detail pane by (`n`, `p`; ↓ and ↑ when the pane's text fits, so they have
    /// nothing to scroll), or nil.
    static func adjacentItem(_ key: Key, textFits: Bool) -> Int? {
        switch key {
        case .character("n"): 1
        case .character("p"): -1
        case .down where textFits: 1
        case .up where textFits: -1
        default: nil
        }
    }

    private static func handleDetail(_ key: Key, detail: DetailPane, table: TableController,
                                     actions: ItemActions?) -> Outcome {
        if isBack(key) {
            table.closeDetail()
            return .handled
        }
        if let delta = adjacentItem(key, textFits: !detail.textScroll.isCut) {
            table.openAdjacent(by: delta)
            return .handled
        }
        if let actions, handleItemAction(key, table: table, actions: actions) { return .handled }
        if let lines = scrollAmount(key == .enter ? .down : key, page: max(1, table.listHeight - 2)) {
            detail.scroll(by: lines)
            table.redraw()
            return .handled
        }
        switch key {
        case .character("r"): table.reloadDetailImage()
        case .character("d"): table.removeDetailImageFromCache()
        case .character("s"): table.toggleReuseOverlay()
        case .character("?"): table.toggleHelp()
        default: table.say(noAction(key, in: .detailPane, actionsOff: actions == nil))
        }
        table.redraw()
        return .handled
    }

    private static func handlePageFailure(_ key: Key, pane: PageFailurePane, table: TableController) -> Outcome {
        if isBack(key) {
            table.closeDetail()
        } else if key == .enter || key == .character("r") {
            table.retryPage()
        } else if let lines = scrollAmount(key, page: max(1, table.listHeight - 2)) {
            pane.scroll(by: lines)
            table.redraw()
        } else if key == .character("?") {
            table.toggleHelp()
        } else {
            table.say(noAction(key, in: .failurePane))
        }
        return .handled
    }

    private static func handle(_ mouse: MouseEvent, table: TableController) -> Outcome {
        let wheel: Int? = mouse.action == .wheelUp ? -3 : mouse.action == .wheelDown ? 3 : nil
        if table.showingHelp {
            if let wheel, table.helpScroll.isCut { table.scrollHelp(by: wheel) } else { table.toggleHelp() }
            return .handled
        }
        if let detail = table.detail {
            if let wheel { detail.scroll(by: wheel) }
            table.redraw()
            return .handled
        }
        if let pane = table.pageFailure {
            if let wheel { pane.scroll(by: wheel) }
            table.redraw()
            return .handled
        }
        switch mouse.action {
        case .wheelUp: table.scroll(by: -3)
        case .wheelDown: table.scroll(by: 3)
        case .click: table.select(screenLine: mouse.row, column: mouse.column)
        case .doubleClick: if table.select(screenLine: mouse.row, column: mouse.column) { table.openSelected() }
        }
        return .handled
    }
}
