import Cells
import Codecs
import Graphics
import Pixels
import Table

/// One terminal protocol's way of drawing a picture in pixels over its text art's cells (`TerminalPictures` decides
/// what to draw and when; this says how): sixel, an iTerm2 inline image, a kitty direct placement. A new protocol,
/// or a terminal's quirk, is one more of these; one whose pictures are text cells is a `CellPictures`.
@MainActor
protocol PictureProtocol: AnyObject, Sendable {
    /// Whether a picture stays until text is written over its cells (sixel, iTerm2): the adapter then has its lines
    /// repainted when it leaves, and sends again the pictures a repaint erased. False where a picture is removed by
    /// a command (kitty), text under it or not.
    var erasedByRepaint: Bool { get }
    /// The pixel box a picture at `footprint` is fetched and fitted into, for cells of `cell` pixels; nil when it
    /// cannot be drawn at that size.
    func box(for footprint: PictureFootprint, cell: CellPixelSize) -> PixelSize?
    /// Encodes the fitted bitmap for `footprint`; `id` names it to the terminal where the protocol has ids. Runs off
    /// the main actor, once per picture and size: the result is kept and sent again as often as it is shown.
    nonisolated func encode(_ bitmap: Bitmap, footprint: PictureFootprint, id: UInt32) -> [UInt8]?
    /// The bytes that draw `picture` at `footprint` (the cursor put back where curses left it), as placement
    /// `placement` (an id per owner, for protocols that move and delete placements).
    func show(_ picture: EncodedPicture, at footprint: PictureFootprint, placement: UInt32) -> [UInt8]
    /// The bytes that take placement `placement` of `picture` off the screen; empty when only a repaint can.
    func remove(_ picture: EncodedPicture, placement: UInt32) -> [UInt8]
    /// The bytes that make the terminal forget `picture` (no longer kept: evicted, or the screen is left).
    func forget(_ picture: EncodedPicture) -> [UInt8]
    /// The most pictures kept (and so held by the terminal) at once.
    var maxPictures: Int { get }
    /// The id a new picture gets after `id` (0 before the first), in the range the protocol can carry.
    func id(after id: UInt32) -> UInt32

    // The detail pane's animation (`PanePixelFrames`): defaults below re-send each frame as a picture.

    /// Frame `position` of an animation's loop (0: the first) for `footprint`, as animation `id`: runs off the main
    /// actor, once per frame read; nil when it cannot be encoded.
    nonisolated func animationFrame(_ bitmap: Bitmap, position: Int, footprint: PictureFootprint,
                                    id: UInt32) -> AnimationFrameBytes?
    /// The bytes that show a frame at `footprint` (`frame.show`, its upload sent already), as placement `placement`;
    /// `first`: the first frame shown of animation `id`, over the still `picture` shown there.
    func showFrame(_ frame: AnimationFrameBytes, id: UInt32, at footprint: PictureFootprint, placement: UInt32,
                   first: Bool, over picture: EncodedPicture?) -> [UInt8]
    /// The bytes that end animation `id` (the pane closed or moved); empty when a repaint erases it.
    func endAnimation(id: UInt32, placement: UInt32) -> [UInt8]
}

/// One frame of an animation for the terminal: `upload` is sent as soon as it is ready and in order (kitty's frame
/// data), `show` when the frame is due. `again` is what the same place in a later loop sends, kept by the player
/// within its budget so that later loops decode and encode nothing (nil: the frame is read and encoded again).
struct AnimationFrameBytes: Sendable {
    var upload: [UInt8] = []
    var show: [UInt8]
    var again: Again?

    /// A frame's bytes in a later loop (a struct cannot hold itself).
    struct Again: Sendable {
        var upload: [UInt8] = []
        var show: [UInt8]
    }
}

/// A protocol whose pictures are text cells drawn by the frame in place of the text art (kitty's Unicode
/// placeholders), not bytes written over the text after it: `show` gives only what must reach the terminal before
/// the frame that draws the cells (an upload), and `remove` nothing (the cells are written over).
@MainActor
protocol CellPictures: PictureProtocol {
    /// The cells that show `picture` at `footprint`, the footprint's size.
    func cells(of picture: EncodedPicture, at footprint: PictureFootprint) -> CellBuffer
}

/// A picture encoded for the terminal at one size, kept to be sent again.
struct EncodedPicture: Sendable {
    /// Its id to the terminal (kitty), unique among the pictures kept (ids are freed and taken again).
    var id: UInt32
    var bytes: [UInt8]
}

extension PictureProtocol {
    var maxPictures: Int { TerminalPictures.maxPictures }

    /// 1 up to 2^24 - 1, then round again.
    func id(after id: UInt32) -> UInt32 { id >= 0xFF_FFFF ? 1 : id + 1 }

    /// `bytes` written at the footprint's top left cell, the cursor saved before and restored after (curses believes
    /// it where it left it).
    func atCell(_ footprint: PictureFootprint, _ bytes: [UInt8]) -> [UInt8] {
        Array("\u{1B}7\u{1B}[\(footprint.y + 1);\(footprint.x + 1)H".utf8) + bytes + Array("\u{1B}8".utf8)
    }

    /// The footprint's cells in pixels, within `PictureCeiling`; nil for a size no picture has.
    func cellsBox(_ footprint: PictureFootprint, cell: CellPixelSize) -> PixelSize? {
        guard footprint.columns > 0, footprint.rows > 0, cell.width > 0, cell.height > 0 else { return nil }
        let box = PictureCeiling.box(width: footprint.columns * cell.width, height: footprint.rows * cell.height)
        return PixelSize(width: box.width, height: box.height)
    }
}

extension PictureProtocol {
    /// Each frame encoded as a still picture, sent whole when due; a later loop sends the same bytes.
    nonisolated func animationFrame(_ bitmap: Bitmap, position: Int, footprint: PictureFootprint,
                                    id: UInt32) -> AnimationFrameBytes? {
        guard let bytes = encode(bitmap, footprint: footprint, id: id) else { return nil }
        return AnimationFrameBytes(show: bytes, again: .init(show: bytes))
    }

    /// The frame's picture at the footprint's first cell, over the one before it.
    func showFrame(_ frame: AnimationFrameBytes, id: UInt32, at footprint: PictureFootprint, placement: UInt32,
                   first: Bool, over picture: EncodedPicture?) -> [UInt8] {
        atCell(footprint, frame.show)
    }

    func endAnimation(id: UInt32, placement: UInt32) -> [UInt8] { [] }
}
