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
    var uploaded: Set<UInt32> = []

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

/// The detail pane's animation as one kitty image of frames (kitty's animation protocol): the first frame is the
/// image (`a=t`), the next ones are added to it (`a=f`) up to `heldFrameBytes`, and each is shown on the program's
/// clock by making it the current frame (`a=a,c=`), so later loops send a few bytes a frame. Past the budget, one
/// last frame is written over each time (`r=`), the pixels sent again.
extension KittyPlacements {
    /// The most pixel bytes (RGBA, as kitty holds them) of one animation's frames kept in the terminal.
    nonisolated static let heldFrameBytes = 32 << 20

    /// The frames of a loop the terminal keeps for a picture of this size (at least 2).
    nonisolated static func heldFrames(width: Int, height: Int) -> Int {
        max(2, heldFrameBytes / max(1, width * height * 4))
    }

    nonisolated func animationFrame(_ bitmap: Bitmap, position: Int, footprint: PictureFootprint,
                                    id: UInt32) -> AnimationFrameBytes? {
        let held = Self.heldFrames(width: bitmap.width, height: bitmap.height)
        let number = min(position, held) + 1
        let show = KittyCommands.showFrame(id: id, frame: number)
        if position == 0 {
            return AnimationFrameBytes(upload: KittyCommands.transmit(bitmap, id: id).flatMap { $0 }, show: show,
                                       again: .init(show: show))
        }
        if position < held {
            return AnimationFrameBytes(upload: KittyCommands.frame(bitmap, id: id).flatMap { $0 }, show: show,
                                       again: .init(show: show))
        }
        // The last frame kept is written over by every later one: added the first time, edited after.
        let edit = KittyCommands.frame(bitmap, id: id, editing: number).flatMap { $0 }
        let upload = position == held ? KittyCommands.frame(bitmap, id: id).flatMap { $0 } : edit
        return AnimationFrameBytes(upload: upload, show: show, again: .init(upload: edit, show: show))
    }

    /// The first frame shown takes the still picture's place: its placement goes, the animation's comes.
    func showFrame(_ frame: AnimationFrameBytes, id: UInt32, at footprint: PictureFootprint, placement: UInt32,
                   first: Bool, over picture: EncodedPicture?) -> [UInt8] {
        guard first else { return frame.show }
        uploaded.insert(id)
        let still = picture.map { remove($0, placement: placement) } ?? []
        return still + frame.show + atCell(footprint, KittyCommands.place(id: id, placement: placement,
                                                                          columns: footprint.columns,
                                                                          rows: footprint.rows))
    }

    /// The animation's image and its placement are deleted.
    func endAnimation(id: UInt32, placement: UInt32) -> [UInt8] {
        uploaded.remove(id)
        return KittyCommands.delete(id: id)
    }
}
