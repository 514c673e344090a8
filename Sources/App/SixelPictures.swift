import Codecs
import Graphics
import Pixels
import Table

/// Pictures as sixel (xterm `-ti vt340`, foot, mlterm, WezTerm, Windows Terminal, Konsole): drawn at the cursor,
/// erased only by writing text over their cells.
@MainActor
final class SixelPictures: PictureProtocol {
    /// The most palette entries (the terminal's colour registers, at most 256).
    private let maxColors: Int
    /// The terminal's largest sixel image (XTSMGRAPHICS; xterm's default 1000x1000 when it does not say).
    private let maxSize: PixelSize

    init(maxColors: Int, maxSize: PixelSize) {
        self.maxColors = maxColors
        self.maxSize = maxSize
    }

    /// For what the terminal answered of its sixel geometry.
    convenience init(_ geometry: SixelGeometry?) {
        self.init(maxColors: min(256, max(16, geometry?.colorRegisters ?? 256)),
                  maxSize: PixelSize(width: geometry?.maxWidth ?? 1000, height: geometry?.maxHeight ?? 1000))
    }

    var erasedByRepaint: Bool { true }

    /// The footprint's pixels with the height cut to a multiple of 6: sixel draws bands of six pixel rows, and a
    /// band that crossed the footprint's last cell row would draw under the next line (or scroll the screen).
    func box(for footprint: PictureFootprint, cell: CellPixelSize) -> PixelSize? {
        guard let cells = cellsBox(footprint, cell: cell) else { return nil }
        let width = min(cells.width, maxSize.width)
        let height = min(cells.height, maxSize.height) / 6 * 6
        return width > 0 && height > 0 ? PixelSize(width: width, height: height) : nil
    }

    nonisolated func encode(_ bitmap: Bitmap, footprint: PictureFootprint, id: UInt32) -> [UInt8]? {
        let bytes = SixelEncoder.encode(bitmap, options: .init(maxColors: maxColors))
        return bytes.isEmpty ? nil : bytes
    }

    func show(_ picture: EncodedPicture, at footprint: PictureFootprint, placement: UInt32) -> [UInt8] {
        atCell(footprint, picture.bytes)
    }

    func remove(_ picture: EncodedPicture, placement: UInt32) -> [UInt8] { [] }

    func forget(_ picture: EncodedPicture) -> [UInt8] { [] }
}

extension SixelPictures {
    /// An animation's frames are sent opaque, over black (as iTerm2's JPEG drops the alpha): a sixel leaves its
    /// transparent pixels undrawn, which would keep the frame before's pixels there.
    nonisolated func animationFrame(_ bitmap: Bitmap, position: Int, footprint: PictureFootprint,
                                    id: UInt32) -> AnimationFrameBytes? {
        var opaque = bitmap
        opaque.pixels.withUnsafeMutableBufferPointer { pixels in
            for alpha in stride(from: 3, to: pixels.count, by: 4) where pixels[alpha] != 255 {
                let a = UInt16(pixels[alpha])
                for channel in alpha - 3..<alpha { pixels[channel] = UInt8(UInt16(pixels[channel]) * a / 255) }
                pixels[alpha] = 255
            }
        }
        guard let bytes = encode(opaque, footprint: footprint, id: id) else { return nil }
        return AnimationFrameBytes(show: bytes, again: .init(show: bytes))
    }
}
