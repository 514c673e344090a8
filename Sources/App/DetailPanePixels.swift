import Codecs
import Graphics
import Pipeline
import Pixels
import Table

/// Draws the detail pane's picture in real pixels (sixel, an iTerm2 inline image, or a kitty image placed at the
/// picture's cell) over its text art, after each
/// frame, and only when the picture or its place changed: an idle screen sends nothing.
///
/// The text art stays underneath as the footprint and shows while the pixels load and encode. A repaint of the
/// screen (resize, Ctrl-Z and fg) erases sixels in xterm, so after one the picture is sent again; when the pane
/// closes or its picture moves, the screen is repainted first so that no pixels linger over other cells.
@MainActor
final class DetailPanePixels {
    /// How a picture becomes bytes: sixel, iTerm2's inline image, or a kitty image with this id.
    enum Form {
        /// Sixel with at most this many colours, no larger than the terminal's largest sixel image.
        case sixel(maxColors: Int, maxSize: PixelSize)
        case iterm2
        /// A kitty upload placed at the cursor (a direct placement, not placeholders: the pane does not scroll
        /// its picture), deleted when the picture leaves the screen.
        case kitty(id: UInt32)
    }

    /// The pane's kitty image id: its high byte is 0, which the thumbnails' ids (`TerminalImages`) never have.
    static let kittyImageID: UInt32 = 0x00_7E_57_01

    private let form: Form
    private var cellPixels: CellPixelSize
    private let pipeline: ImagePipeline
    private let insideTmux: Bool
    private let send: ([UInt8]) -> Void
    /// Called when encoded bytes are ready to be drawn: the App schedules a frame.
    var onReady: () -> Void = {}

    /// The picture the current load and encoding are for.
    private var wanted: DetailPicture?
    private var work: Task<Void, Never>?
    /// The encoded picture, ready to send (kept to send again after a repaint).
    private var encoded: (picture: DetailPicture, bytes: [UInt8])?
    /// The picture on screen now, in pixels.
    private(set) var shown: DetailPicture?

    init(form: Form, cellPixels: CellPixelSize, pipeline: ImagePipeline, insideTmux: Bool,
         send: @escaping ([UInt8]) -> Void) {
        self.form = form
        self.cellPixels = cellPixels
        self.pipeline = pipeline
        self.insideTmux = insideTmux
        self.send = send
    }

    /// The form a terminal's capabilities call for, or nil when the pane's picture stays text art (text, or kitty
    /// inside tmux, which passes placeholders but cannot place an image at a cell of the outer screen).
    static func form(for graphics: GraphicsCapabilities) -> Form? {
        switch graphics.graphics {
        case .sixel:
            // XTSMGRAPHICS' answers, else what VT340-like terminals take (xterm's default largest image is 1000x1000).
            .sixel(maxColors: min(256, max(16, graphics.sixel?.colorRegisters ?? 256)),
                   maxSize: PixelSize(width: graphics.sixel?.maxWidth ?? 1000, height: graphics.sixel?.maxHeight ?? 1000))
        case .iterm2: .iterm2
        case .kitty: graphics.tmuxPassthrough ? nil : .kitty(id: kittyImageID)
        case .text: nil
        }
    }

    /// After a frame was drawn: what to do for the picture now on screen (nil: none). Returns true when the screen
    /// must be repainted first (pixels of another picture, or of a closed pane, are on it); the App then repaints,
    /// calls `screenRepainted()` and draws again.
    func frameDrawn(_ picture: DetailPicture?) -> Bool {
        if picture != wanted {
            work?.cancel()
            work = nil
            wanted = picture
            if let picture, encoded?.picture != picture { load(picture) }
        }
        if let shown, shown != picture {
            deleteImage()
            return true
        }
        if let picture, shown == nil, let encoded, encoded.picture == picture {
            send(TmuxPassthrough.prepare(placed(encoded.bytes, at: picture.footprint), insideTmux: insideTmux))
            self.shown = picture
        }
        return false
    }

    /// Every cell was repainted (which erases sixels): nothing of ours is on screen any more.
    func screenRepainted() {
        shown = nil
    }

    /// Deletes the kitty image from the terminal (kitty keeps images until told, and per screen: before curses
    /// gives the screen back, at exit and on Ctrl-Z); sixel and iTerm2 pictures are only pixels, erased by a repaint.
    func deleteImage() {
        guard case .kitty(let id) = form, shown != nil else { return }
        send(KittyCommands.delete(id: id))
        shown = nil
    }

    /// The terminal's cells changed size in pixels (a font size change): the picture is fetched and encoded again
    /// for the new size, and the one on screen (sized for the old cells) is deleted.
    func cellPixelsChanged(to size: CellPixelSize) {
        guard size != cellPixels else { return }
        cellPixels = size
        deleteImage()
        cancel()
        encoded = nil
        wanted = nil
    }

    /// Stops the load under way.
    func cancel() {
        work?.cancel()
        work = nil
    }

    /// The bytes at the footprint's top left cell, the cursor saved before and restored after (curses believes it
    /// where it left it).
    private func placed(_ image: [UInt8], at footprint: PictureFootprint) -> [UInt8] {
        Array("\u{1B}7\u{1B}[\(footprint.y + 1);\(footprint.x + 1)H".utf8) + image + Array("\u{1B}8".utf8)
    }

    private func load(_ picture: DetailPicture) {
        let fitted = PictureCeiling.box(width: picture.footprint.columns * cellPixels.width,
                                        height: picture.footprint.rows * cellPixels.height)
        var box = PixelSize(width: fitted.width, height: fitted.height)
        if case .sixel(_, let maxSize) = form {
            box = PixelSize(width: min(box.width, maxSize.width), height: min(box.height, maxSize.height))
        }
        let request = ImagePipeline.PixelRequest(url: picture.url, box: box)
        let load = pipeline.pixels(request)
        let form = self.form
        let footprint = picture.footprint
        work = Task { [weak self] in
            guard let bitmap = try? await load.value(), !Task.isCancelled else { return }
            // Encoding takes milliseconds of CPU: off the main actor.
            let bytes = await Task.detached { Self.encode(bitmap, form: form, footprint: footprint) }.value
            guard let self, !Task.isCancelled, self.wanted == picture, let bytes else { return }
            self.encoded = (picture, bytes)
            self.onReady()
        }
    }

    nonisolated static func encode(_ bitmap: Bitmap, form: Form, footprint: PictureFootprint) -> [UInt8]? {
        switch form {
        case .sixel(let maxColors, _):
            return SixelEncoder.encode(bitmap, options: .init(maxColors: maxColors))
        case .iterm2:
            guard let jpeg = try? JPEGEncoder.encode(bitmap, quality: 90) else { return nil }
            return ITerm2Image.sequence(file: jpeg, columns: footprint.columns, rows: footprint.rows)
        case .kitty(let id):
            return KittyCommands.upload(bitmap, id: id, columns: footprint.columns, rows: footprint.rows,
                                        virtual: false).flatMap { $0 }
        }
    }
}
