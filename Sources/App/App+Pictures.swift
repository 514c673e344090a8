import Cells
import FoundationEssentials
import Graphics
import Pipeline
import Table
import Terminal
import TextArt

/// The App's pictures in pixels, made for the terminal detection found.
extension App {
    /// The pictures in pixels over their text art, or in its place as kitty's Unicode placeholders, when the
    /// terminal's cell size is known: in sixel, iTerm2 images or kitty's direct placements (not inside tmux, which
    /// cannot put a picture at a cell of the outer screen), and kitty's placeholders for the thumbnails when it has
    /// them (inside tmux too) and 256 colours or more (the image id is carried by the colour).
    static func makePictures(for terminal: Terminal, pipeline: ImagePipeline?) -> TerminalPictures? {
        let graphics = terminal.graphics
        guard let pipeline, let cellPixels = graphics.cellPixels else { return nil }
        let thumbnails: (any PictureProtocol)?, pane: (any PictureProtocol)?
        switch graphics.graphics {
        case .sixel: (thumbnails, pane) = (SixelPictures(graphics.sixel), nil)
        case .iterm2: (thumbnails, pane) = (ITerm2Pictures(), nil)
        case .kitty where graphics.kittyPlaceholders:
            thumbnails = terminal.colorCount >= 256
                ? KittyPlaceholderPictures(form: terminal.colorCount >= ColorSetup.direct ? .direct : .palette256,
                                           insideTmux: graphics.tmuxPassthrough)
                : nil
            pane = graphics.tmuxPassthrough ? nil : KittyPlacements()
        case .kitty where !graphics.tmuxPassthrough: (thumbnails, pane) = (KittyPlacements(), nil)
        case .kitty, .text: return nil
        }
        guard thumbnails != nil || pane != nil else { return nil }
        // The pane's picture is no text cells (the pane's view draws none): inside tmux with kitty's placeholders it
        // stays text art, and its animation plays as text art.
        let cellThumbnails = thumbnails is any CellPictures
        return TerminalPictures(thumbnails: thumbnails, pane: pane ?? (cellThumbnails ? nil : thumbnails),
                                cellPixels: cellPixels,
                                fetch: { url, box in
            try? await pipeline.pixels(ImagePipeline.PixelRequest(url: url, box: box)).value()
        }, send: { [weak terminal] bytes in terminal?.send(bytes) })
    }

    /// The detail pane's animations in pixels: the pipeline's frames of an animated picture, drawn by `pictures`.
    static func paneAnimations(in pictures: TerminalPictures, pipeline: ImagePipeline)
        -> @MainActor (URL, CellSize) async -> (any AnimationFrameSource)?
    {
        { [weak pictures] url, cells in
            let request = ThumbnailRequest(url: url, size: cells, options: TextArtOptions())
            // A lookup cancelled meanwhile (the pane moved on) must not end the animation that replaced it.
            guard let source = try? await pipeline.animation(request), !Task.isCancelled, let pictures else {
                return nil
            }
            return pictures.paneAnimationFrames(source, url: url, cells: cells)
        }
    }

    /// Why kitty thumbnails are not shown although the terminal has them, for the status line (`shown`: they are,
    /// or the screen is `demo --compare`'s).
    static func pixelsNote(for terminal: Terminal, showing shown: Bool) -> String? {
        guard !shown, terminal.graphics.kittyThumbnails, terminal.colorCount < 256 else { return nil }
        return "Thumbnails as text: kitty images need 256 colours or more"
    }
}
