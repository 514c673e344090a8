@testable import App
import Foundation
import Table
import Terminal
import TestSupport
import Testing

/// The key table is the one list of keys: the dispatch looks keys up in it, the help shows its lines, and the README,
/// docs/keys.md and the man page carry its text. These tests fail when one of them differs from it.
@MainActor
@Suite struct KeyTableTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let begin = "<!-- keys: generated from Sources/App/KeyTable.swift; RECORD_DOCS=1 swift test --filter "
        + "KeyTableTests writes it -->"
    static let end = "<!-- end of the generated keys -->"

    /// Every key a line lists does what that line says where the line says it works: no line is shadowed by an
    /// earlier one, but for the grid, where ← → h l move across, and → l open only in the list, as the help says;
    /// and the detail pane, where ↓ ↑ go to the next item when the text fits, and scroll it otherwise.
    @Test func everyKeyDoesWhatItsLineSays() {
        for binding in KeyTable.bindings {
            for place in binding.places {
                for (key, action) in binding.actions {
                    let found = KeyTable.action(for: key, in: place)
                    if place == .grid, action == .open, key == .right || key == .character("l") {
                        #expect(found == .moveAcross(1))
                        continue
                    }
                    if place == .detail, case .scroll(.lines(let lines)) = action, key == .down || key == .up {
                        #expect(found == .adjacentWhenTextFits(lines))
                        continue
                    }
                    #expect(found == action, "\(KeyBindings.keyName(key)) in \(place) (\(binding.label))")
                }
            }
        }
    }

    /// A key no line binds in a place does nothing there but say so; one bound everywhere works on every screen.
    @Test func theDispatchIsTheTable() {
        #expect(KeyTable.action(for: .character("x"), in: .list) == nil)
        #expect(KeyTable.action(for: .character("v"), in: .detail) == nil)
        #expect(KeyTable.action(for: .character("j"), in: .filter) == nil, "j types in the filter")
        for place in KeyPlace.allCases {
            #expect(KeyTable.action(for: .control("c"), in: place) == .quit(130))
            #expect(KeyTable.action(for: .control("z"), in: place) == .suspend)
        }
        #expect(KeyTable.action(for: .character("q"), in: .list) == .quit(0))
        #expect(KeyTable.action(for: .character("q"), in: .detail) == .back)
    }

    /// The `?` help shows every line of the table that has help words, with its keys, in the table's order.
    @Test func theHelpShowsTheTablesLines() async {
        let (table, _) = await ChangeWaiter.startedTable(columns: 120, rows: 40, helpLines: KeyTable.helpLines())
        _ = KeyBindings.handle(.key(.character("?")), table: table, terminalSize: Terminal.Size(columns: 120, rows: 40))
        let lines = table.nextFrame().lines
        let shown = KeyTable.bindings.filter { $0.help != nil }
        #expect(shown.count == KeyTable.helpLines().count)
        var previous = 0
        for binding in shown {
            let y = lines.firstIndex { $0.contains(binding.label) && $0.contains(binding.help ?? "") }
            #expect(y != nil, "\(binding.label) is not in the help")
            if let y {
                #expect(y >= previous, "\(binding.label) is out of order")
                previous = y
            }
        }
    }

    /// The README's main keys and docs/keys.md hold the table as `KeyTable.markdown` writes it.
    @Test(arguments: [("README.md", true), ("docs/keys.md", false)])
    func theDocsHoldTheTable(file: String, mainOnly: Bool) throws {
        let url = Self.repository.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let begin = text.range(of: Self.begin), let end = text.range(of: Self.end) else {
            Issue.record("\(file) has no generated keys between the markers")
            return
        }
        let generated = "\n" + KeyTable.markdown(mainOnly: mainOnly) + "\n"
        let shown = String(text[begin.upperBound..<end.lowerBound])
        if ProcessInfo.processInfo.environment["RECORD_DOCS"] != nil, shown != generated {
            try text.replacingCharacters(in: begin.upperBound..<end.lowerBound, with: generated)
                .write(to: url, atomically: true, encoding: .utf8)
            Issue.record("recorded \(file); run again without RECORD_DOCS")
            return
        }
        #expect(shown == generated, "\(file) differs from the key table: RECORD_DOCS=1 rewrites it")
    }
}
