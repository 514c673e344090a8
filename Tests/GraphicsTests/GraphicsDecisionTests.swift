import Foundation
import Graphics
import Testing

@Suite struct GraphicsDecisionTests {
    private func replies(_ text: String) -> TerminalReplies {
        var parser = TerminalReplyParser()
        parser.feed(Array(text.utf8))
        return parser.replies
    }

    private let kitty = "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}[?62;c"

    @Test func kittyWithPlaceholdersIsChosen() {
        let found = GraphicsDecision.decide(.auto, replies: replies(kitty), environment: TerminalEnvironment())
        #expect(found.graphics == .kitty && found.kittyPlaceholders && found.kittyThumbnails)
        #expect(found.cellPixels == CellPixelSize(width: 10, height: 20))
        #expect(found.note == nil)
    }

    @Test func olderKittyAndWezTermHaveNoPlaceholders() {
        let old = GraphicsDecision.decide(.auto, replies: replies(kitty.replacingOccurrences(of: "0.35.2", with: "0.26.5")),
                                          environment: TerminalEnvironment())
        #expect(old.graphics == .kitty && !old.kittyThumbnails)
        #expect(old.note?.contains("placeholders") == true)
        let wez = GraphicsDecision.decide(.auto, replies: replies(kitty.replacingOccurrences(of: "kitty(0.35.2)",
                                                                                          with: "WezTerm 20240203")),
                                          environment: TerminalEnvironment())
        #expect(!wez.kittyPlaceholders)
    }

    @Test func sixelFromDA1AndSilentTerminalsGetText() {
        let sixel = GraphicsDecision.decide(.auto, replies: replies("\u{1B}[6;13;6t\u{1B}[?63;1;4c"),
                                            environment: TerminalEnvironment())
        #expect(sixel.graphics == .sixel)
        let silent = GraphicsDecision.decide(.auto, replies: TerminalReplies(), environment: TerminalEnvironment())
        #expect(silent.graphics == .text)
        let garbage = GraphicsDecision.decide(.auto, replies: replies("\u{1B}_Gi=31;OK"),
                                              environment: TerminalEnvironment())
        #expect(garbage.graphics == .text)
    }

    @Test func theCellSizeComesFromTheWindowWhenNotAnswered() {
        let environment = TerminalEnvironment(windowCellPixels: CellPixelSize(areaWidth: 484, areaHeight: 316,
                                                                              columns: 80, rows: 24))
        let found = GraphicsDecision.decide(.auto, replies: replies("\u{1B}[?63;4c"), environment: environment)
        #expect(found.graphics == .sixel)
        #expect(found.cellPixels == CellPixelSize(width: 6, height: 13))
        let unknown = GraphicsDecision.decide(.auto, replies: replies("\u{1B}[?63;4c"),
                                              environment: TerminalEnvironment())
        #expect(unknown.graphics == .text && unknown.note?.contains("cell size") == true)
    }

    @Test func forcedProtocolsSkipDetectionAndTextIsText() {
        let forced = GraphicsDecision.decide(.forced(.kitty), replies: replies("\u{1B}[6;20;10t\u{1B}[?1;2c"),
                                             environment: TerminalEnvironment())
        #expect(forced.kittyThumbnails)
        #expect(GraphicsDecision.decide(.text, replies: replies(kitty), environment: TerminalEnvironment())
            == .text())
    }

    @Test func tmuxNeedsPassthroughAndRGB() {
        var environment = TerminalEnvironment(insideTmux: true)
        let off = GraphicsDecision.decide(.auto, replies: nil, environment: environment)
        #expect(off.graphics == .text && off.note?.contains("allow-passthrough") == true)
        environment.tmuxPassthrough = true
        let noRGB = GraphicsDecision.decide(.auto, replies: replies(kitty), environment: environment)
        #expect(noRGB.graphics == .text && noRGB.note?.contains("RGB") == true)
        environment.tmuxRGB = true
        let on = GraphicsDecision.decide(.auto, replies: replies(kitty), environment: environment)
        #expect(on.kittyThumbnails && on.tmuxPassthrough)
    }
}
