import Table
import Terminal

/// Maps what the user does to what the table does. Follows less and vim habits.
@MainActor
enum KeyBindings {
    enum Outcome: Equatable {
        case handled
        /// End the program with this exit status (0 for q, 130 for Ctrl-C, as a shell reports SIGINT).
        case quit(Int32)
    }

    static func handle(_ event: InputEvent, table: TableController, terminalSize: Terminal.Size) -> Outcome {
        switch event {
        case .resize:
            table.resize(columns: terminalSize.columns, rows: terminalSize.rows)
            return .handled
        case .mouse(let mouse):
            return handle(mouse, table: table)
        case .key(let key):
            if key == .control("c") { return .quit(130) }
            if table.isBatchPrefetching, key == .escape {
                table.cancelBatchPrefetch()
                return .handled
            }
            table.dismissBatchProgress()
            table.status = nil
            if table.showingHelp {
                table.toggleHelp()
                return .handled
            }
            if table.isEditingFilter { return handleFilter(key, table: table) }
            if let detail = table.detail { return handleDetail(key, detail: detail, table: table) }
            return handleList(key, table: table)
        }
    }

    private static func handleList(_ key: Key, table: TableController) -> Outcome {
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
        case .character("s"): table.toggleReuseOverlay()
        case .character("P"): table.startBatchPrefetch()
        case .escape: if !table.filter.isEmpty { table.clearFilter() }
        case .control("l"): table.onChange()
        default: break
        }
        return .handled
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

    private static func handleDetail(_ key: Key, detail: DetailPane, table: TableController) -> Outcome {
        let page = max(1, table.listHeight - 2)
        switch key {
        case .escape, .character("q"), .backspace, .left, .character("h"): table.closeDetail()
        case .down, .character("j"), .enter: detail.scroll(by: 1)
        case .up, .character("k"): detail.scroll(by: -1)
        case .pageDown, .character(" "), .control("d"): detail.scroll(by: page)
        case .pageUp, .character("b"), .control("u"): detail.scroll(by: -page)
        case .home, .character("g"): detail.scroll(by: -Int(Int32.max))
        case .end, .character("G"): detail.scroll(by: Int(Int32.max))
        case .character("r"): detail.reloadImage()
        case .character("d"): detail.removeImageFromCache()
        case .character("s"): table.toggleReuseOverlay()
        case .character("?"): table.toggleHelp()
        default: return .handled
        }
        table.onChange()
        return .handled
    }

    private static func handle(_ mouse: MouseEvent, table: TableController) -> Outcome {
        if table.showingHelp {
            table.toggleHelp()
            return .handled
        }
        if let detail = table.detail {
            switch mouse.action {
            case .wheelUp: detail.scroll(by: -3)
            case .wheelDown: detail.scroll(by: 3)
            case .click, .doubleClick: return .handled
            }
            table.onChange()
            return .handled
        }
        switch mouse.action {
        case .wheelUp: table.scroll(by: -3)
        case .wheelDown: table.scroll(by: 3)
        case .click: table.select(screenLine: mouse.row)
        case .doubleClick: if table.select(screenLine: mouse.row) { table.openSelected() }
        }
        return .handled
    }
}
