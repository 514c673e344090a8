import Codecs
import Graphics
import Pixels
import Table

/// Pictures as kitty images shown by direct placements (kitty before 0.28, WezTerm, Konsole; and the detail pane
/// in every kitty): each picture uploaded once (`a=t`), then placed at a footprint's first cell per owner (`a=p`
/// with the owner's placement id, which moves it when sent again), deleted by image and placement id.
@MainActor
final class KittyPlacements: PictureProtocol {
    /// The images the terminal holds now, by id.
    private var uploaded: Set<UInt32> = []

    var erasedByRepaint: Bool { false }

    func box(for footprint: PictureFootprint, cell: CellPixelSize) -> PixelSize? {
        cellsBox(footprint, cell: cell)
    }

    /// The upload's commands (`a=t`, chunked), sent before the picture's first placement.
    nonisolated func encode(_ bitmap: Bitmap, footprint: PictureFootprint, id: UInt32) -> [UInt8]? {
        KittyCommands.transmit(bitmap, id: id).flatMap { $0 }
    }

    func show(_ picture: EncodedPicture, at footprint: PictureFootprint, placement: UInt32) -> [UInt8] {
        let upload = uploaded.insert(picture.id).inserted ? picture.bytes : []
        return upload + atCell(footprint, KittyCommands.place(id: picture.id, placement: placement,
                                                              columns: footprint.columns, rows: footprint.rows))
    }

    func remove(_ picture: EncodedPicture, placement: UInt32) -> [UInt8] {
        KittyCommands.delete(id: picture.id, placement: placement)
    }

    func forget(_ picture: EncodedPicture) -> [UInt8] {
        guard uploaded.remove(picture.id) != nil else { return [] }
        return KittyCommands.delete(id: picture.id)
    }
}
