import Codecs
import Graphics
import Pixels
import Table

/// Pictures as iTerm2 inline images (iTerm2, WezTerm, VS Code): a JPEG the terminal scales into the footprint's
/// cells, drawn at the cursor and erased only by writing text over its cells.
@MainActor
final class ITerm2Pictures: PictureProtocol {
    var erasedByRepaint: Bool { true }

    func box(for footprint: PictureFootprint, cell: CellPixelSize) -> PixelSize? {
        cellsBox(footprint, cell: cell)
    }

    nonisolated func encode(_ bitmap: Bitmap, footprint: PictureFootprint, id: UInt32) -> [UInt8]? {
        guard let jpeg = try? JPEGEncoder.encode(bitmap, quality: 90) else { return nil }
        return ITerm2Image.sequence(file: jpeg, columns: footprint.columns, rows: footprint.rows)
    }

    func show(_ picture: EncodedPicture, at footprint: PictureFootprint, placement: UInt32) -> [UInt8] {
        atCell(footprint, picture.bytes)
    }

    func remove(_ picture: EncodedPicture, placement: UInt32) -> [UInt8] { [] }

    func forget(_ picture: EncodedPicture) -> [UInt8] { [] }
}
