import Cells
import FoundationEssentials
import Graphics
import Pipeline
import Table
import Terminal
import TextArt

/// The App's pictures in pixels, made for the terminal detection found.
extension App {
    /// The thumbnails' kitty images, when the terminal shows them with placeholders and in 256 colours or more (the
    /// image id is carried by the colour).
    static func makeImages(for terminal: Terminal, pipeline: ImagePipeline?) -> TerminalImages? {
        let graphics = terminal.graphics
        guard let pipeline, graphics.kittyThumbnails, let cellPixels = graphics.cellPixels,
              terminal.colorCount >= 256 else { return nil }
        return TerminalImages(pipeline: pipeline, cellPixels: cellPixels,
                                    form: terminal.colorCount >= ColorSetup.direct ? .direct : .palette256,
                                    insideTmux: graphics.tmuxPassthrough) { [weak terminal] bytes in
            terminal?.send(bytes)
        }
    }

    /// The pictures in pixels over their text art, when the terminal draws sixel, iTerm2 or kitty images (not
    /// kitty inside tmux, which cannot put an image at a cell of the outer screen) and its cell size is known.
    static func makePictures(for terminal: Terminal, pipeline: ImagePipeline?) -> TerminalPictures? {
        let graphics = terminal.graphics
        guard let pipeline, let cellPixels = graphics.cellPixels else { return nil }
        let form: any PictureProtocol
        switch graphics.graphics {
        case .sixel: form = SixelPictures(graphics.sixel)
        case .iterm2: form = ITerm2Pictures()
        case .kitty where !graphics.tmuxPassthrough: form = KittyPlacements()
        case .kitty, .text: return nil
        }
        return TerminalPictures(form: form, cellPixels: cellPixels, fetch: { url, box in
            try? await pipeline.pixels(ImagePipeline.PixelRequest(url: url, box: box)).value()
        }, send: { [weak terminal] bytes in terminal?.send(bytes) })
    }

    /// The detail pane's animations in pixels: the pipeline's frames of an animated picture, drawn by `pictures`.
    static func paneAnimations(in pictures: TerminalPictures, pipeline: ImagePipeline)
        -> @MainActor (URL, CellSize) async -> (any AnimationFrameSource)?
    {
        { [weak pictures] url, cells in
            let request = ThumbnailRequest(url: url, size: cells, options: TextArtOptions())
            guard let source = try? await pipeline.animation(request), let pictures else { return nil }
            return pictures.paneAnimationFrames(source, url: url, cells: cells)
        }
    }

    /// Whether the thumbnails go through `TerminalPictures` too (not only the pane's picture): not with kitty's
    /// placeholders (`TerminalImages` shows them as cells), and not inside tmux, which cannot keep a picture at a cell.
    static func picturesThumbnails(_ graphics: GraphicsCapabilities) -> Bool {
        !graphics.tmuxPassthrough && graphics.kittyPlacement != .placeholders
    }

    /// Why kitty thumbnails are not shown although the terminal has them, for the status line (`shown`: they are,
    /// or the screen is `demo --compare`'s).
    static func pixelsNote(for terminal: Terminal, showing shown: Bool) -> String? {
        guard !shown, terminal.graphics.kittyThumbnails, terminal.colorCount < 256 else { return nil }
        return "Thumbnails as text: kitty images need 256 colours or more"
    }
}
