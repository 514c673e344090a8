import Cells
import Codecs
import Graphics
import Pixels
import Table

/// Thumbnails as kitty images shown by Unicode placeholders (kitty 0.28+, Ghostty; inside tmux too): each picture
/// uploaded once with a virtual placement of its footprint's cells (`a=T,U=1`), and shown by text cells that carry
/// its id (`KittyPlaceholder`), which the frame draws in place of the text art. The cells scroll with their row and
/// are repainted as text is, so nothing is placed, moved or removed by a command: a picture that leaves is text
/// written over, and only the image's delete (`a=d,d=I`) is ever sent after its upload.
@MainActor
final class KittyPlaceholderPictures: CellPictures {
    /// How the image id is carried by the cells' colour: 24-bit, or 256 colours (fewer ids).
    private let form: KittyPlaceholder.ColorForm
    /// Whether every command is wrapped for tmux's passthrough.
    private let insideTmux: Bool
    /// The ids' high byte, drawn at random per run (1...255), carried by the third diacritic: another program's
    /// images in the same terminal (or a run before this one) are unlikely to share ids with ours.
    private let highByte: UInt32
    /// The images the terminal holds now, by id.
    private var uploaded: Set<UInt32> = []
    /// Each held image's cells, made once.
    private var cellsByID: [UInt32: CellBuffer] = [:]

    init(form: KittyPlaceholder.ColorForm, insideTmux: Bool, highByte: UInt32 = .random(in: 1...255)) {
        self.form = form
        self.insideTmux = insideTmux
        self.highByte = highByte
    }

    var erasedByRepaint: Bool { false }

    /// About ten screens of thumbnails; in 256 colours fewer than the 240 ids there are.
    var maxPictures: Int { form == .direct ? 400 : 200 }

    /// The footprint's cells in pixels, for as many rows and columns as the diacritics number.
    func box(for footprint: PictureFootprint, cell: CellPixelSize) -> PixelSize? {
        let cells = 1...(KittyPlaceholder.maxIndex + 1)
        guard cells.contains(footprint.columns), cells.contains(footprint.rows) else { return nil }
        return cellsBox(footprint, cell: cell)
    }

    /// The upload with its virtual placement (`a=T,U=1`, chunked), each command wrapped for tmux where needed.
    nonisolated func encode(_ bitmap: Bitmap, footprint: PictureFootprint, id: UInt32) -> [UInt8]? {
        KittyCommands.upload(bitmap, id: id, columns: footprint.columns, rows: footprint.rows)
            .flatMap { TmuxPassthrough.prepare($0, insideTmux: insideTmux) }
    }

    /// The upload, when the terminal does not hold the image yet; nothing else (the cells show it).
    func show(_ picture: EncodedPicture, at footprint: PictureFootprint, placement: UInt32) -> [UInt8] {
        uploaded.insert(picture.id).inserted ? picture.bytes : []
    }

    func remove(_ picture: EncodedPicture, placement: UInt32) -> [UInt8] { [] }

    func forget(_ picture: EncodedPicture) -> [UInt8] {
        cellsByID[picture.id] = nil
        guard uploaded.remove(picture.id) != nil else { return [] }
        return TmuxPassthrough.prepare(KittyCommands.delete(id: picture.id), insideTmux: insideTmux)
    }

    func cells(of picture: EncodedPicture, at footprint: PictureFootprint) -> CellBuffer {
        if let cells = cellsByID[picture.id], cells.width == footprint.columns, cells.height == footprint.rows {
            return cells
        }
        let cells = KittyPlaceholder.cells(imageID: picture.id, columns: footprint.columns, rows: footprint.rows,
                                           form: form)
        cellsByID[picture.id] = cells
        return cells
    }

    /// Ids the colour form carries: the run's high byte, and a low part from 256 in 24-bit colour (none is sent
    /// as a palette index) or 16 to 255 in 256 colours (the 16 ANSI colours' SGR forms are not the `38;5;n` the
    /// protocol reads).
    func id(after id: UInt32) -> UInt32 {
        let low = id & 0xFF_FFFF
        let next: UInt32 = form == .direct ? (low < 256 || low >= 0xFF_FFFF ? 256 : low + 1)
            : (low < 16 || low >= 255 ? 16 : low + 1)
        return highByte << 24 | next
    }
}
