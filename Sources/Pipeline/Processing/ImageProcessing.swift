import Cells
import Codecs

/// Bytes to cells: the fit, decode and render steps, swappable so simulation tests can run thousands of scrolls
/// fast.
public struct ImageProcessing: Sendable {
    /// The key under which a request's decoded bitmap is cached: requests with equal keys share one decode.
    public var decodeTarget: @Sendable (ThumbnailRequest) -> PixelSize
    /// How a request's picture fits its box, given the picture's full size (nil when its header cannot be read).
    public var fit: @Sendable (_ imageSize: PixelSize?, _ request: ThumbnailRequest) -> PictureFit
    public var decode: @Sendable (_ image: EncodedImage, _ fit: PictureFit) throws(DecodeError) -> DecodedImage
    public var render: @Sendable (_ image: DecodedImage, _ fit: PictureFit, _ request: ThumbnailRequest) -> CellBuffer
    /// The bytes `decode` will allocate for this image (0 when unknown), reserved from `decodeBudget` first.
    public var decodeMemory: @Sendable (_ image: EncodedImage, _ fit: PictureFit) -> Int
    /// The memory concurrent decodes share.
    public var decodeBudget: DecodeMemoryBudget
    /// About how much work `decode` will do for this image (`ImageDecoder.decodeWork`; 0 when unknown): decodes
    /// from `longDecodes.threshold` on take turns in `longDecodes`.
    public var decodeWork: @Sendable (_ image: EncodedImage, _ fit: PictureFit) -> Int
    /// Where long decodes take turns, so that they never hold every thread.
    public var longDecodes: LongDecodeLane

    public init(decodeTarget: @escaping @Sendable (ThumbnailRequest) -> PixelSize,
                fit: @escaping @Sendable (PixelSize?, ThumbnailRequest) -> PictureFit,
                decode: @escaping @Sendable (EncodedImage, PictureFit) throws(DecodeError) -> DecodedImage,
                render: @escaping @Sendable (DecodedImage, PictureFit, ThumbnailRequest) -> CellBuffer,
                decodeMemory: @escaping @Sendable (EncodedImage, PictureFit) -> Int = { _, _ in 0 },
                decodeBudget: DecodeMemoryBudget = .shared,
                decodeWork: @escaping @Sendable (EncodedImage, PictureFit) -> Int = { _, _ in 0 },
                longDecodes: LongDecodeLane = .shared) {
        self.decodeTarget = decodeTarget
        self.fit = fit
        self.decode = decode
        self.render = render
        self.decodeMemory = decodeMemory
        self.decodeBudget = decodeBudget
        self.decodeWork = decodeWork
        self.longDecodes = longDecodes
    }

    /// The real codecs and renderer, by the same rule as `thumbtable render` (`PictureFit`), so a row's thumbnail
    /// equals `render` at the same size and options.
    public static let live = ImageProcessing(
        decodeTarget: { request in PictureFit(filling: request.size, mode: request.options.mode).decodeSize },
        fit: { imageSize, request in PictureFit(imageSize: imageSize, in: request.size, options: request.options) },
        decode: { image, fit throws(DecodeError) in try fit.decode(image) },
        render: { image, fit, request in fit.render(image, options: request.options) },
        decodeMemory: { image, fit in fit.memoryCost(of: image) },
        decodeWork: { image, fit in ImageDecoder.decodeWork(of: image, options: fit.decodeOptions) })
}
