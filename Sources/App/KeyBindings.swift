import Items
import Table
import Terminal

/// Hands what the user does to the table: a key is looked up in `KeyTable` for the place it is pressed in and its
/// `KeyAction` performed; the mouse scrolls, selects and opens. Follows less and vim habits.
@MainActor
enum KeyBindings {
    enum Outcome: Equatable {
        case handled
        /// End the program with this exit status (0 for q, 130 for Ctrl-C, as a shell reports SIGINT).
        case quit(Int32)
        /// Stop the program until the shell continues it (Ctrl-Z, which raw mode delivers as a key).
        case suspend
        /// End, choosing these items (a picker's Enter).
        case pick([Item])
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
            let place = place(of: table)
            let action = KeyTable.action(for: key, in: place, picking: table.configuration.picking)
            if let action, action.worksEverywhere { return perform(action, key: key, table: table, actions: actions) }
            if table.isBatchPrefetching, key == .escape {
                table.cancelBatchPrefetch()
                return .handled
            }
            table.dismissBatchProgress()
            table.clearNote()
            switch place {
            case .help:
                // A help taller than the screen scrolls; any other key (any key at all when it fits) closes it.
                if table.helpScroll.isCut, case .scroll(let step) = action {
                    table.scrollHelp(by: KeyAction.lines(step, page: table.helpScroll.page))
                } else {
                    table.toggleHelp()
                }
            case .filter:
                if let action {
                    return perform(action, key: key, table: table, actions: actions)
                } else if case .character(let character) = key {
                    table.editFilter(appending: character)
                }
            case .list, .grid, .detail, .pageFailure:
                guard let action else {
                    table.say(noAction(key, in: place, actionsOff: actions == nil))
                    return .handled
                }
                return perform(action, key: key, table: table, actions: actions)
            }
            return .handled
        }
    }

    /// Where keys go now: the screen showing, and in the list whether it shows as the grid.
    static func place(of table: TableController) -> KeyPlace {
        switch table.screen {
        case .list: table.layoutMode == .grid ? .grid : .list
        case .filter: .filter
        case .detail: .detail
        case .pageFailure: .pageFailure
        case .help: .help
        }
    }

    /// What the status line says of a key that does nothing where it was pressed, so no key is silent: where it
    /// works when it works elsewhere, else that it is no key; and that `?` lists them.
    static func noAction(_ key: Key, in place: KeyPlace, actionsOff: Bool = false) -> String {
        let name = keyName(key)
        let inList = place == .list || place == .grid
        let works = { (place: KeyPlace) in KeyTable.action(for: key, in: place) != nil }
        var elsewhere: String?
        if actionsOff, KeyTable.action(for: key, in: .list)?.isItemAction == true {
            elsewhere = "\(name) is off in demo --compare"
        } else if place == .list, works(.grid) {
            elsewhere = "\(name) moves across in the grid (v switches to it)"
        } else if inList, case .adjacent(let delta) = KeyTable.action(for: key, in: .detail) {
            elsewhere = "\(name) shows the \(delta > 0 ? "next" : "previous") item in the detail pane "
                + "(Enter opens it)"
        } else if inList, KeyTable.action(for: key, in: .detail) == .back {
            elsewhere = "\(name) closes the detail pane (Enter opens it)"
        } else if place == .detail, works(.list) {
            elsewhere = "\(name) works in the list (Esc goes back to it)"
        }
        return (elsewhere ?? "unknown key \(name)") + " · ? lists the keys"
    }

    /// Does what `action` asks on the table. A key in a pane draws it again (its text scrolled, a note changed).
    static func perform(_ action: KeyAction, key: Key, table: TableController, actions: ItemActions?) -> Outcome {
        let inPane = table.detail != nil || table.pageFailure != nil
        switch action {
        case .quit(let status): return .quit(status)
        case .suspend: return .suspend
        case .move(let delta): table.move(by: delta)
        case .moveAcross(let delta): table.moveAcross(by: delta)
        case .page(let fraction): table.page(by: fraction)
        case .home: table.goHome()
        case .end: table.goEnd()
        case .open: table.openSelected()
        case .back: table.closeDetail()
        case .adjacent(let delta): table.openAdjacent(by: delta)
        case .adjacentWhenTextFits(let delta):
            if table.detail?.textScroll.isCut == true { scrollPane(.lines(delta), table: table) } else {
                table.openAdjacent(by: delta)
            }
        case .scroll(let step): scrollPane(step, table: table)
        case .pauseAnimation: if !table.togglePaneAnimation() { scrollPane(.pages(1), table: table) }
        case .beginFilter: table.beginFilter()
        case .keepFilter: table.endFilterEditing()
        // Esc with nothing to clear stays quiet: it is pressed to be sure nothing is open, not to ask for something.
        case .clearFilter: if table.isEditingFilter || !table.filter.isEmpty { table.clearFilter() }
        case .deleteFilterBackward: table.editFilterDeleteBackward()
        case .help: table.toggleHelp()
        case .retry: if table.detail != nil { table.reloadDetailImage() } else { table.retrySelected() }
        case .retryPage: table.retryPage()
        case .removeFromCache:
            if table.detail != nil { table.removeDetailImageFromCache() } else { table.removeSelectedImageFromCache() }
        case .reuseOverlay: table.toggleReuseOverlay()
        case .prefetchAll: table.startBatchPrefetch()
        case .switchLayout: table.toggleLayout()
        case .switchCompact: table.toggleCompact()
        case .zoom(let steps): table.zoom(by: steps)
        case .redraw: table.redraw()
        case .pick:
            let chosen = table.detail.map { [$0.item] } ?? table.chosenItems
            // On the status row (a failed page, paging paused) Enter does what it does there.
            guard !chosen.isEmpty else { return perform(.open, key: key, table: table, actions: actions) }
            return .pick(chosen)
        case .toggleMark:
            if !table.toggleMark() { table.say("nothing marked: no item is selected") }
        case .cancelPick:
            if table.filter.isEmpty { return .quit(130) }
            table.clearFilter()
        case .saveOriginal, .saveArt, .openLink, .copyLink:
            guard let actions else {
                table.say(noAction(key, in: place(of: table), actionsOff: true))
                return .handled
            }
            perform(itemAction: action, table: table, actions: actions)
        }
        if inPane { table.redraw() }
        return .handled
    }

    private static func perform(itemAction: KeyAction, table: TableController, actions: ItemActions) {
        switch itemAction {
        case .saveOriginal: actions.saveOriginal(in: table)
        case .saveArt: actions.saveArt(in: table)
        case .openLink: actions.open(in: table)
        case .copyLink: actions.copyURL(in: table)
        default: break
        }
    }

    /// Scrolls the open pane's text by a key's step, a page being the list area less two lines.
    private static func scrollPane(_ step: KeyAction.TextStep, table: TableController) {
        let lines = KeyAction.lines(step, page: max(1, table.listHeight - 2))
        if let detail = table.detail { detail.scroll(by: lines) }
        if let pane = table.pageFailure { pane.scroll(by: lines) }
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

    private static func handle(_ mouse: MouseEvent, table: TableController) -> Outcome {
        let wheel: Int? = mouse.action == .wheelUp ? -3 : mouse.action == .wheelDown ? 3 : nil
        switch table.screen {
        case .help:
            if let wheel, table.helpScroll.isCut { table.scrollHelp(by: wheel) } else { table.toggleHelp() }
            return .handled
        case .detail(let detail):
            if let wheel { detail.scroll(by: wheel) }
            table.redraw()
            return .handled
        case .pageFailure(let pane):
            if let wheel { pane.scroll(by: wheel) }
            table.redraw()
            return .handled
        case .list, .filter:
            break
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
