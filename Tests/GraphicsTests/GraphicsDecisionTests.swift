import Foundation
import Cells
import Graphics
import Testing

@Suite struct GraphicsDecisionTests {
    private func replies(_ text: String) -> TerminalReplies {
        var parser = TerminalReplyParser()
        parser.feed(Array(text.utf8))
        return parser.replies
    }

    /// kitty 0.35's answers: both kitty queries OK, its cell size, XTVERSION and DA1.
    private let kitty = "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}P>|kitty(0.35.2)\u{1B}\\"
        + "\u{1B}[?62;c"

    @Test func kittyWithPlaceholdersIsChosen() {
        let found = GraphicsDecision.decide(.auto, replies: replies(kitty), environment: TerminalEnvironment())
        #expect(found.graphics == .kitty && found.kittyPlaceholders && found.kittyThumbnails)
        #expect(found.cellPixels == CellPixelSize(width: 10, height: 20))
        #expect(found.note == nil)
    }

    /// kitty 0.26.5 answers the plain query but not the one with the placeholder key: direct placements, its own
    /// capability, which the list and grid use outside tmux (so nothing to say on the status line).
    @Test func kittyThatDoesNotAnswerThePlaceholderQueryHasDirectPlacements() {
        let debianKitty = kitty.replacingOccurrences(of: "\u{1B}_Gi=32;OK\u{1B}\\", with: "")
            .replacingOccurrences(of: "0.35.2", with: "0.26.5")
        let old = GraphicsDecision.decide(.auto, replies: replies(debianKitty), environment: TerminalEnvironment())
        #expect(old.graphics == .kitty && old.kittyPlacement == .direct)
        #expect(old.kittyDirectPlacements && !old.kittyThumbnails)
        #expect(old.note == nil)
        #expect(old.summary == "kitty with direct placements, 10x20 px cells")
        // Asked, not named: the same silence from a terminal calling itself kitty 0.35 is direct placements too.
        let silentNew = kitty.replacingOccurrences(of: "\u{1B}_Gi=32;OK\u{1B}\\", with: "")
        #expect(GraphicsDecision.decide(.auto, replies: replies(silentNew), environment: TerminalEnvironment())
            .kittyPlacement == .direct)
    }

    /// The version is the second witness: a terminal that answers the placeholder query but names itself WezTerm,
    /// Konsole or a kitty before 0.28 has direct placements.
    @Test(arguments: ["WezTerm 20240203", "Konsole 24.02", "kitty(0.26.5)"])
    func aVersionWithoutPlaceholdersOverridesTheAnswer(_ version: String) {
        let found = GraphicsDecision.decide(.auto, replies: replies(kitty.replacingOccurrences(of: "kitty(0.35.2)",
                                                                                             with: version)),
                                            environment: TerminalEnvironment())
        #expect(found.graphics == .kitty && found.kittyPlacement == .direct, "\(version)")
        let ghostty = GraphicsDecision.decide(.auto, replies: replies(kitty.replacingOccurrences(of: "kitty(0.35.2)",
                                                                                               with: "ghostty 1.1.3")),
                                              environment: TerminalEnvironment())
        #expect(ghostty.kittyPlacement == .placeholders && ghostty.summary == "kitty with Unicode placeholders, "
            + "10x20 px cells")
    }

    /// iTerm2 lists sixel in DA1, but its own inline images are chosen.
    @Test func iTerm2GetsItsOwnImagesBeforeSixel() {
        let iterm2 = "\u{1B}[6;32;16t\u{1B}P>|iTerm2 3.5.11\u{1B}\\\u{1B}[?62;4c"
        let found = GraphicsDecision.decide(.auto, replies: replies(iterm2), environment: TerminalEnvironment())
        #expect(found.graphics == .iterm2 && found.kittyPlacement == nil)
        #expect(found.cellPixels == CellPixelSize(width: 16, height: 32))
    }

    /// Bad input: a cell size of 0 or 65535 pixels, answers that stop before DA1, kitty's test image rejected. Each
    /// falls back to text art with a reason.
    @Test(arguments: ["\u{1B}[6;0;0t", "\u{1B}[6;65535;65535t", "\u{1B}[6;20;0t"])
    func aCellSizeOfZeroOr65535IsTextArtWithAReason(_ answer: String) {
        let found = GraphicsDecision.decide(.auto, replies: replies(kitty.replacingOccurrences(of: "\u{1B}[6;20;10t",
                                                                                             with: answer)),
                                            environment: TerminalEnvironment())
        #expect(found.graphics == .text && found.cellPixels == nil)
        #expect(found.note?.contains("is not one a screen can have") == true, "\(String(describing: found.note))")
    }

    @Test func answersThatStopBeforeDA1AreTextArtWithAReason() {
        let cut = replies("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32;OK\u{1B}\\\u{1B}[6;20;10t")
        let found = GraphicsDecision.decide(.auto, replies: cut, environment: TerminalEnvironment())
        #expect(found.graphics == .text && found.note?.contains("stopped answering") == true)
        // tmux answers DA1 itself and keeps the outer terminal's: there the answers are read without it.
        let tmux = TerminalEnvironment(insideTmux: true, tmuxPassthrough: true, tmuxRGB: true)
        #expect(GraphicsDecision.decide(.auto, replies: cut, environment: tmux).kittyThumbnails)
        // Nothing at all is a terminal without pixels, not a late one: no note.
        #expect(GraphicsDecision.decide(.auto, replies: TerminalReplies(), environment: TerminalEnvironment()).note
            == nil)
    }

    @Test func aRejectedTestImageIsTextArtWithTheTerminalsReason() {
        let rejected = replies("\u{1B}_Gi=31;EINVAL:bad\u{7}data\u{1B}\\\u{1B}[6;20;10t\u{1B}[?62;c")
        let found = GraphicsDecision.decide(.auto, replies: rejected, environment: TerminalEnvironment())
        #expect(found.graphics == .text && found.note == "Pictures as text: the terminal rejected kitty's test image "
            + "(EINVAL:baddata)")
        // A sixel terminal that rejects it still gets sixel.
        let sixel = replies("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\\u{1B}[6;13;6t\u{1B}[?63;4c")
        #expect(GraphicsDecision.decide(.auto, replies: sixel, environment: TerminalEnvironment()).graphics == .sixel)
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
        // Without passthrough nothing can be asked: silent text art, unless pixels were asked for or the
        // environment names a terminal that draws them.
        #expect(GraphicsDecision.decide(.auto, replies: nil, environment: environment) == .text())
        let forced = GraphicsDecision.decide(.forced(.kitty), replies: nil, environment: environment)
        #expect(forced.graphics == .text && forced.note?.contains("allow-passthrough") == true)
        environment.kittyWindow = true
        let off = GraphicsDecision.decide(.auto, replies: nil, environment: environment)
        #expect(off.graphics == .text && off.note?.contains("allow-passthrough") == true)
        environment.tmuxPassthrough = true
        let noRGB = GraphicsDecision.decide(.auto, replies: replies(kitty), environment: environment)
        #expect(noRGB.graphics == .text && noRGB.note?.contains("RGB") == true)
        environment.tmuxRGB = true
        let on = GraphicsDecision.decide(.auto, replies: replies(kitty), environment: environment)
        #expect(on.kittyThumbnails && on.tmuxPassthrough)
    }

    /// Cell sizes no screen can have: `CSI 6;1024;512t` in a 100x30 window would be 51,200 pixels wide. Not
    /// believed, whether answered or in the window's pixel fields; the window's plausible size is used instead.
    @Test(arguments: ["\u{1B}[6;1024;512t", "\u{1B}[6;400;90t", "\u{1B}[6;300;200t"])
    func cellSizesBeyondAScreenAreNotBelieved(_ answer: String) {
        let window = CellSize(columns: 100, rows: 30)
        let lying = GraphicsDecision.decide(.auto, replies: replies(kitty.replacingOccurrences(of: "\u{1B}[6;20;10t",
                                                                                               with: answer)),
                                            environment: TerminalEnvironment(windowCells: window))
        #expect(lying.graphics == .text && lying.cellPixels == nil)
        #expect(lying.note?.contains("more than a screen holds") == true, "\(String(describing: lying.note))")
        let fallback = TerminalEnvironment(windowCellPixels: CellPixelSize(width: 9, height: 18), windowCells: window)
        let windowed = GraphicsDecision.decide(.forced(.kitty), replies: replies(answer), environment: fallback)
        #expect(windowed.cellPixels == CellPixelSize(width: 9, height: 18))
        // The window's pixel fields: 51,200 x 30,720 for 100x30 cells is no screen either.
        #expect(CellPixelSize(areaWidth: 51_200, areaHeight: 30_720, columns: 100, rows: 30) == nil)
        #expect(CellPixelSize(areaWidth: 7680, areaHeight: 4320, columns: 100, rows: 30)
            == CellPixelSize(width: 76, height: 144), "an 8K screen's window is believed")
    }

    /// XTSMGRAPHICS saying the largest sixel is larger than the screen (999999999): as if unanswered.
    @Test func sixelGeometryBeyondTheScreenIsNotBelieved() {
        let sixel = "\u{1B}[6;13;6t\u{1B}[?63;1;4c\u{1B}[?1;0;999999999S"
        let window = CellSize(columns: 100, rows: 30)
        let huge = GraphicsDecision.decide(.auto, replies: replies(sixel + "\u{1B}[?2;0;999999999;999999999S"),
                                           environment: TerminalEnvironment(windowCells: window))
        #expect(huge.graphics == .sixel)
        #expect(huge.sixel?.maxWidth == nil && huge.sixel?.maxHeight == nil)
        let wide = GraphicsDecision.decide(.auto, replies: replies(sixel + "\u{1B}[?2;0;601;390S"),
                                           environment: TerminalEnvironment(windowCells: window))
        #expect(wide.sixel?.maxWidth == nil, "one pixel wider than 100 cells of 6")
        let fits = GraphicsDecision.decide(.auto, replies: replies(sixel + "\u{1B}[?2;0;600;390S"),
                                           environment: TerminalEnvironment(windowCells: window))
        #expect(fits.sixel?.maxWidth == 600 && fits.sixel?.maxHeight == 390)
    }

    /// No picture has more pixels than a 4K screen, whatever box its cells give; its shape is kept.
    @Test func aPicturesPixelsHaveACeiling() {
        #expect(PictureCeiling.box(width: 640, height: 480) == (640, 480))
        #expect(PictureCeiling.box(width: 3840, height: 2160) == (3840, 2160))
        for (width, height) in [(6144, 5120), (51_200, 30_720), (8192, 1), (1, 8192 * 8192)] {
            let box = PictureCeiling.box(width: width, height: height)
            #expect(box.width * box.height <= PictureCeiling.maxPixels, "\(width)x\(height)")
            #expect(box.width >= 1 && box.height >= 1)
            let ratio = Double(width) / Double(height), kept = Double(box.width) / Double(box.height)
            #expect(box.width == 1 || box.height == 1 || abs(kept / ratio - 1) < 0.01, "\(width)x\(height)")
        }
    }
}
