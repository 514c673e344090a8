import Cells
import Codecs
import FoundationEssentials
import Graphics
import Pipeline
import Pixels
import Table

extension TerminalPictures {
    /// The frames of the pane's animated picture at `url` in pixels, for the pane's player: fitted as its still picture
    /// at `cells` (its text art's) is, encoded for the protocol; nil when no picture can be drawn at that size.
    func paneAnimationFrames(_ source: AnimationSource, url: URL, cells: CellSize) -> (any AnimationFrameSource)? {
        let footprint = PictureFootprint(x: 0, y: 0, columns: cells.columns, rows: cells.rows)
        guard let form = paneForm, let box = form.box(for: footprint, cell: cellPixels) else { return nil }
        // The animation's own id, in the one id space; the one before it (ended below) gives its id back.
        let key = Key(url: url, box: box, grid: cells, role: .animation)
        guard let id = newID(for: key) else { return nil }
        if let old = animationID { kept.release(old.id, of: old.key) }
        animationID = (id, key)
        let ended = paneAnimation.start(id: id, url: url, form: form, placement: placement(of: .pane))
        // An animation before it took the still picture's place (kitty) and has gone: the still is placed again.
        if !ended.isEmpty { shown[.pane] = nil }
        write(ended)
        return PanePixelFrames(source, box: box, footprint: footprint, id: id, form: form) {
            [weak self] number, frame in
            guard let self else { return }
            self.write(self.paneAnimation.arrived(frame, number: number, of: id))
        }
    }

    /// After the frame's text: the pane's animation frame due, over its picture on screen.
    func paneAnimationFrame() -> [UInt8] {
        guard let form = paneForm, let wanted = wantedByOwner[.pane], let onScreen = shown[.pane],
              onScreen.picture.isAtPlace(of: wanted),
              let bytes = paneAnimation.show(wanted, onScreen: onScreen.picture, still: kept[onScreen.key]?.picture,
                                             form: form, placement: placement(of: .pane)) else { return [] }
        shown[.pane]?.picture.frame = wanted.frame
        return bytes
    }
}

extension TerminalPictures {
    /// Whether the pane's animation ended while its pane may still play it (`PaneAnimationPictures.interrupted`) and
    /// `pictures` (the frame's) show the pane's picture again: then it is to be played again, and this says so once.
    func takeInterruptedAnimation(showing pictures: [ScreenPicture]) -> Bool {
        guard paneAnimation.interrupted, pictures.contains(where: { $0.owner == .pane }) else { return false }
        paneAnimation.interrupted = false
        return true
    }
}
