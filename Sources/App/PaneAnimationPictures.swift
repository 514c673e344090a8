import Pipeline
import FoundationEssentials
import Table

/// The detail pane's animation as `TerminalPictures` draws it: which animation plays, its frames ready to show, and
/// which the terminal shows. Frames come from the player's source (`PanePixelFrames`) ahead of their time; each one's
/// upload is written at once (kitty's frame data, in order), its picture when the pane's frame number says it is due
/// and the pane's picture is on screen at its place. The animation ends when the pane's picture leaves that place
/// (closed, moved, another picture) or the screen is given back: nothing of it is sent after that.
@MainActor
final class PaneAnimationPictures {
    private struct Playing {
        var id: UInt32
        var url: URL
        /// Frames ready, by their number since the player started (the pane's `animationFrame`).
        var ready: [Int: AnimationFrameBytes] = [:]
        /// Where its frames are shown, once one is.
        var footprint: PictureFootprint?
    }

    private var playing: Playing?
    /// Set when the animation ended while its pane may still play it: its picture no longer shown at its place (the
    /// help or the reuse overlay over it, the pane moved) or its frames made for other cells. The pane's player then
    /// plays it again once the picture shows (`TerminalPictures.takeInterruptedAnimation`).
    var interrupted = false

    /// The id of the animation playing, if any.
    var id: UInt32? { playing?.id }

    /// A new animation of `url` is played as `id`; returns what ends the one before.
    func start(id: UInt32, url: URL, form: any PictureProtocol, placement: UInt32) -> [UInt8] {
        let ended = end(form: form, placement: placement)
        playing = Playing(id: id, url: url)
        interrupted = false
        return ended
    }

    /// A frame arrived from animation `id`: returns its upload, to be written now (nothing once it has ended).
    func arrived(_ frame: AnimationFrameBytes, number: Int, of id: UInt32) -> [UInt8] {
        guard playing?.id == id else { return [] }
        // The frame before it is the one shown: a player makes one frame ahead of its clock.
        playing!.ready = playing!.ready.filter { $0.key >= number - 1 }
        playing!.ready[number] = frame
        return frame.upload
    }

    /// After the frame's text: the bytes that show the pane's frame `wanted` asks for, where `onScreen` (the same
    /// picture at the same place) shows another frame, over the still picture `still`; nil when there is none to
    /// show (the frame is not ready, or no animation of that picture plays).
    func show(_ wanted: ScreenPicture, onScreen: ScreenPicture, still: EncodedPicture?, form: any PictureProtocol,
              placement: UInt32) -> [UInt8]? {
        guard var playing, playing.url == wanted.url, wanted.frame != onScreen.frame,
              let frame = playing.ready[wanted.frame] else { return nil }
        // The still picture shows (the first frame due, or the picture was sent again after a repaint): the frame
        // takes its place (in kitty, the animation's placement replaces the still one's).
        let bytes = form.showFrame(frame, id: playing.id, at: wanted.footprint, placement: placement,
                                   first: onScreen.frame == 0, over: still)
        playing.footprint = wanted.footprint
        // The frame shown is kept: sent again should a repaint erase it (or kitty's still picture be placed again).
        playing.ready = playing.ready.filter { $0.key >= wanted.frame }
        self.playing = playing
        return bytes
    }

    /// Before the frame's text: ends the animation unless the pane still wants its picture (whatever frame) where
    /// its frames are shown.
    func frameWill(want wanted: ScreenPicture?, form: any PictureProtocol, placement: UInt32) -> [UInt8] {
        guard let playing else { return [] }
        if let wanted, wanted.url == playing.url, playing.footprint.map({ $0 == wanted.footprint }) ?? true {
            return []
        }
        // Covered or moved, the pane may show this picture again; another picture in its place plays its own.
        interrupted = wanted.map { $0.url == playing.url } ?? true
        return end(form: form, placement: placement)
    }

    /// Ends the animation: none of its frames is sent after this.
    func end(form: any PictureProtocol, placement: UInt32) -> [UInt8] {
        guard let playing else { return [] }
        self.playing = nil
        return form.endAnimation(id: playing.id, placement: placement)
    }
}
