import Cells
import Codecs
import FoundationEssentials
import Pixels

/// Pictures in real pixels, for terminal image protocols: an image decoded and scaled to fit a box of pixels,
/// through the same byte caches, decoded-bitmap cache, coalescing and cancellation as the text-art thumbnails.
extension ImagePipeline {
    /// One picture wanted in pixels: the image at `url` fitted inside `box` (see `PixelFit`).
    public struct PixelRequest: Sendable, Hashable, CustomStringConvertible {
        public var url: URL
        public var box: PixelSize

        public init(url: URL, box: PixelSize) {
            self.url = url
            self.box = box
        }

        public var description: String { "\(url.absoluteString) in \(box) px" }
    }

    /// The picture for a request: ready if a bitmap of exactly its fitted size is in memory now, else the work to
    /// await (which throws `PipelineError` or `CancellationError`; equal requests share it, and it is cancelled when
    /// its last awaiting task is).
    public nonisolated func pixels(_ request: PixelRequest, priority: RequestPriority = .visible) -> PixelLoad {
        if let bitmap = fittedBitmapInMemory(request) {
            counters.add(\.memoryHits)
            return .ready(bitmap)
        }
        return .pending { try await self.loadPixels(request, priority: priority) }
    }

    private func loadPixels(_ request: PixelRequest, priority: RequestPriority) async throws -> Bitmap {
        if let bitmap = fittedBitmapInMemory(request) {
            counters.add(\.memoryHits)
            return bitmap
        }
        let (subscription, joined) = pixelJobs.subscribe(request, priority: priority) {
            try await self.makePixels(request)
        }
        if joined { counters.add(\.coalesced) }
        return try await subscription.value()
    }

    private func makePixels(_ request: PixelRequest) async throws -> Bitmap {
        let image: DecodedImage
        var reserved = 0
        defer { processing.decodeBudget.release(reserved) }
        if let cached = coveringBitmapInMemory(request) {
            counters.add(\.memoryHits)
            image = cached
        } else {
            let (data, _, _) = try await bytes(for: request.url)
            try Task.checkCancellation()
            (image, reserved) = try await Self.decodePixels(data.bytes, for: request, budget: processing.decodeBudget,
                                                            lane: processing.longDecodes, counters: counters)
        }
        try Task.checkCancellation()
        let fit = Self.fit(of: image, in: request.box)
        let bitmap = await Self.scale(image.bitmap, with: fit)
        // Kept among the decoded bitmaps: it is the whole picture at a smaller size, so a thumbnail that needs no
        // more pixels than it has is drawn from it too.
        bitmaps.set(DecodedImage(bitmap: bitmap, format: image.format, originalWidth: image.originalWidth,
                                 originalHeight: image.originalHeight),
                    for: BitmapKey(url: request.url, target: fit.size), cost: bitmap.pixels.count + 64)
        return bitmap
    }

    private static func fit(of image: DecodedImage, in box: PixelSize) -> PixelFit {
        PixelFit(imageSize: PixelSize(width: image.originalWidth, height: image.originalHeight), in: box)
    }

    /// A bitmap in memory already scaled to the request's fit.
    private nonisolated func fittedBitmapInMemory(_ request: PixelRequest) -> Bitmap? {
        for (key, image) in bitmaps.entries(where: { $0.url == request.url }) {
            let fit = Self.fit(of: image, in: request.box)
            if key.target == fit.size, image.bitmap.width == fit.size.width, image.bitmap.height == fit.size.height {
                _ = bitmaps.value(for: key)  // marks it as just used
                return image.bitmap
            }
        }
        return nil
    }

    /// The smallest decoded bitmap in memory that covers the request's fit, or holds the whole image.
    private func coveringBitmapInMemory(_ request: PixelRequest) -> DecodedImage? {
        var best: (key: BitmapKey, image: DecodedImage)?
        for (key, image) in bitmaps.entries(where: { $0.url == request.url }) {
            let bitmap = image.bitmap
            let whole = bitmap.width >= image.originalWidth && bitmap.height >= image.originalHeight
            let size = PixelSize(width: bitmap.width, height: bitmap.height)
            guard whole || size.covers(Self.fit(of: image, in: request.box).size) else { continue }
            if let best, best.image.bitmap.pixels.count <= bitmap.pixels.count { continue }
            best = (key, image)
        }
        guard let best else { return nil }
        _ = bitmaps.value(for: best.key)
        return best.image
    }

    /// Decodes at the smallest scale that covers the fit, once it is the decode's turn (`LongDecodeLane`) and its
    /// memory is reserved; the caller releases the reserved bytes.
    @concurrent
    private static func decodePixels(_ bytes: [UInt8], for request: PixelRequest, budget: DecodeMemoryBudget,
                                     lane: LongDecodeLane,
                                     counters: PipelineCounters) async throws -> (DecodedImage, reserved: Int) {
        counters.add(\.decodes)
        let image = EncodedImage(bytes)
        let target = image.size.map { PixelFit(imageSize: $0, in: request.box).size } ?? request.box
        let options = DecodeOptions(targetSize: target, keepsAnimationFrames: false)
        let memory = ImageDecoder.memoryCost(of: image, options: options)
        do {
            return try await lane.run(work: ImageDecoder.decodeWork(of: image, options: options)) {
                try await budget.reserve(memory)
                do {
                    // One whose picture left while it waited never starts; a started one stops part way.
                    try Task.checkCancellation()
                    let decoded = try ImageDecoder.decode(image, options: options)
                    if decoded.fromEmbeddedThumbnail { counters.add(\.embeddedThumbnails) }
                    return (decoded, memory)
                } catch {
                    budget.release(memory)
                    throw error
                }
            }
        } catch DecodeError.cancelled {
            throw CancellationError()
        } catch let error as DecodeError {
            throw PipelineError(error, url: request.url)
        }
    }

    @concurrent
    private static func scale(_ bitmap: Bitmap, with fit: PixelFit) async -> Bitmap {
        fit.scale(bitmap)
    }
}

/// A picture in pixels as the pipeline answers for it: ready from memory, or to be awaited.
public typealias PixelLoad = Load<Bitmap>
