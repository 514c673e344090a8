import Cells
import Codecs
import TextArt

/// The one rule for drawing a picture inside a box of cells, shared by the table's thumbnails and
/// `thumbtable render`: the grid the picture fills and the pixels its decoder must cover, worked out once.
///
/// The grid is the box fitted to the picture's aspect ratio, and the decoder covers only that grid's pixels, not the
/// whole box. A wide photo in a 40x20 box fills 40x11 cells, so a JPEG can decode at 1/8 scale instead of 1/4: half
/// the decoder's work and a quarter of the pixels to render.
public struct PictureFit: Sendable, Hashable {
    /// The cells the picture is drawn in.
    public var grid: CellSize
    /// What the decoder must cover (at least) for that grid.
    public var decodeSize: PixelSize

    public init(grid: CellSize, decodeSize: PixelSize) {
        self.grid = grid
        self.decodeSize = decodeSize
    }

    /// The fit of a picture of this full size (in displayed orientation) inside `box`; the whole box when the size
    /// is unknown.
    public init(imageSize: PixelSize?, in box: CellSize, options: TextArtOptions) {
        var grid = box
        if let imageSize {
            grid = TextArtRenderer.fit(imageWidth: imageSize.width, imageHeight: imageSize.height, in: box,
                                       cellAspect: options.cellAspect)
        }
        self.init(filling: grid, mode: options.mode)
    }

    /// The picture stretched over all of `grid`, whatever its aspect ratio.
    public init(filling grid: CellSize, mode: RenderMode) {
        self.grid = grid
        let size = TextArtRenderer.sourcePixelSize(grid, mode: mode)
        decodeSize = PixelSize(width: size.width, height: size.height)
    }

    /// The fit of the picture from its header (`EncodedImage`): the whole box when the header cannot be read (and
    /// decoding will fail at once).
    public init(of image: EncodedImage, in box: CellSize, options: TextArtOptions) {
        self.init(imageSize: image.size, in: box, options: options)
    }

    var decodeOptions: DecodeOptions { DecodeOptions(targetSize: decodeSize, keepsAnimationFrames: false) }

    /// Decodes the image at the smallest scale that covers the grid.
    public func decode(_ image: EncodedImage) throws(DecodeError) -> DecodedImage {
        try ImageDecoder.decode(image, options: decodeOptions)
    }

    /// The bytes `decode` will allocate (`ImageDecoder.memoryCost`), or 0 when the header cannot be read (then
    /// `decode` fails at once).
    public func memoryCost(of image: EncodedImage) -> Int {
        ImageDecoder.memoryCost(of: image, options: decodeOptions)
    }

    /// The picture drawn as text art in the grid.
    public func render(_ image: DecodedImage, options: TextArtOptions) -> CellBuffer {
        TextArtRenderer.render(image.bitmap, columns: grid.columns, rows: grid.rows, options: options)
    }
}
