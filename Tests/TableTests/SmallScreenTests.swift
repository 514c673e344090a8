import App
import Cells
import Foundation
import Items
import TestSupport
import Testing

@testable import Table

/// Small screens don't collide (issue 26, item 7): at every size from 20x6 to 200x60, in the list, the grid, the
/// compact list (item 8), the detail pane, the failed page's pane, the help and the filter line, no scroll marker is
/// drawn over text, and every line of the header, the footer and the status line is whole or cut with `…` (a hint
/// shows its longest form that fits, and only its shortest is cut). And the selection is never hidden (issue 26,
/// item 1): whatever covers part of the list (the reuse overlay, the filter line), the selected row or grid cell
/// shows whole.
@MainActor
@Suite struct SmallScreenTests {
    static let sizes = [20, 24, 30, 40, 60, 80, 100, 120, 160, 200].flatMap { columns in
        [6, 7, 8, 10, 14, 20, 24, 40, 60].map { (columns: columns, rows: $0) }
    }

    /// Items whose texts are longer than a small screen: a photo's file name, a long subtitle and attribution.
    static let longItems = FakeItemSource(count: 30, pageSize: 10, failingPages: [3], failForever: true) { i in
        Item(id: "\(i)", title: "IMG_\(i)-astronaut-on-the-surface-of-the-moon.png",
             subtitle: "3072x2048 · JPEG · taken on a long walk across the Sea of Tranquility",
             fields: [Item.Field("Number", "\(i)"), Item.Field("Camera", "Hasselblad 500EL with a 60 mm lens")],
             imageURL: URL(string: "http://127.0.0.1/images/\(i).png"),
             attribution: "Image from the NASA archive of the Apollo programme, public domain")
    }

    /// What the table shows, set up from a table at 80x24 with its first page loaded.
    enum Shown: CaseIterable {
        case list, grid, detail, pageFailure, help, filter, listUnderOverlay, gridUnderOverlay, compact,
             compactUnderOverlay
    }

    func table(showing shown: Shown) async -> TableController {
        let (table, waiter) = await ChangeWaiter.startedTable(Self.longItems, columns: 80, rows: 24,
                                                              helpLines: KeyTable.helpLines())
        table.update()
        #expect(await waiter.until { !table.isAnimating })
        switch shown {
        case .list: table.move(by: 2)
        case .grid: table.toggleLayout()
        case .detail:
            table.move(by: 5)
            table.openSelected()
        case .pageFailure:
            while table.pageFailure == nil {
                table.goEnd()
                table.update()
                _ = await waiter.until { if case .failed = table.listStatus { true } else { false } }
                table.goEnd()
                table.openSelected()
            }
        case .help: table.toggleHelp()
        case .filter:
            table.beginFilter()
            for c in "astronaut" { table.editFilter(appending: c) }
            table.move(by: 4)
        case .listUnderOverlay:
            // As in the issue: `s`, then `j` six times.
            table.toggleReuseOverlay()
            for _ in 0..<6 { table.move(by: 1) }
        case .gridUnderOverlay:
            table.toggleLayout()
            table.toggleReuseOverlay()
            for _ in 0..<2 { table.move(by: 1) }
        case .compact:
            table.toggleCompact()
            table.move(by: 7)
        case .compactUnderOverlay:
            table.toggleCompact()
            table.toggleReuseOverlay()
            for _ in 0..<12 { table.move(by: 1) }
        }
        return table
    }

    /// The status line's forms for the table as it stands, longest first.
    func statusForms(_ table: TableController) -> [String] {
        StatusLine(list: table.list, screen: table.screen, note: table.status, itemSelected: table.selectedItem != nil,
                   mode: table.listLayout.mode, theme: table.configuration.theme,
                   picking: table.configuration.picking).forms
    }

    @Test(arguments: Shown.allCases)
    func noLineCollidesAtAnySize(_ shown: Shown) async {
        let table = await table(showing: shown)
        var checked = 0
        for size in Self.sizes {
            table.resize(columns: size.columns, rows: size.rows)
            let lines = table.nextFrame().lines
            let at = "\(shown) at \(size.columns)x\(size.rows)"
            if table.detail == nil, table.pageFailure == nil, !table.showingHelp {
                expectSelectionWhole(table, lines, at: at)
            }
            for (y, line) in lines.enumerated() {
                // The marker (full, or short) glued to what is left of a text, as "IMG_61-astronlines 1-5 of 21".
                #expect(line.firstMatch(of: /[^ ]lines \d+-\d+ of \d+|[A-Za-z.]\d+-\d+\/\d+/) == nil,
                        "a scroll marker over text on line \(y), \(at):\n\(lines.joined(separator: "\n"))")
            }
            guard size.rows >= 4 else { continue }
            let header = lines[0], footer = lines[size.rows - 2].trimmed, status = lines[size.rows - 1].trimmed
            let name = " ThumbTable · Fake source"
            let cut = header.firstIndex(of: "…").map { String(header[..<$0]) }
            #expect(header.hasPrefix(name) || cut.map { name.hasPrefix($0) } == true || header.hasPrefix("  "),
                    "the header's name is whole or cut with …, \(at): \(header)")
            if shown == .help {
                // The help's box covers the footer; its own hint shortens to what fits (the marker at least).
                #expect(lines.joined().contains(/lines \d+-\d+ of \d+|\d+-\d+\/\d+|any key closes/),
                        "the help's hint, \(at):\n\(lines.joined(separator: "\n"))")
            } else {
                #expect(footer == "All images from the test" || footer.hasSuffix("…"), "the footer, \(at): \(footer)")
            }
            let forms = statusForms(table)
            let fitting = forms.first { (" " + $0).displayWidth <= size.columns }
            #expect(status == (fitting ?? "").trimmed || (fitting == nil && status.hasSuffix("…")),
                    "the status line shows its longest form that fits, \(at): \(status) of \(forms)")
            checked += 1
        }
        #expect(checked == Self.sizes.count)
    }
}

extension SmallScreenTests {
    /// The selected row's marker (`▌` down its left edge, or its grid cell's) runs down every line the row needs,
    /// inside the list area and above anything that covers its bottom.
    func expectSelectionWhole(_ table: TableController, _ lines: [String], at: String) {
        let marker = TerminalText.unicodeAvailable ? "▌" : ">"
        let marked = lines.indices.filter { lines[$0].contains(marker) }
        let needed = min(table.navigation.selectedRowLines(in: table.list), table.listHeight)
        let overlayTop = lines.firstIndex { $0.contains("Reuse overlay") } ?? lines.count
        let listEnd = table.listTop + table.listHeight
        let screen = lines.joined(separator: "\n")
        #expect(marked.count == needed && marked.allSatisfy { $0 >= table.listTop && $0 < min(overlayTop, listEnd) },
                "the selected row shows whole (\(needed) lines) above what covers the list, \(at): \(marked)\n\(screen)")
    }
}

extension String {
    /// The string without the blank cells at its ends.
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespaces) }
}
