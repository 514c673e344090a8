import Cells
import Codecs
import FoundationEssentials

/// The render stage: a request's job turns bytes into a bitmap (or takes one from memory) and the bitmap into cells.
extension ImagePipeline {
    /// The key of a decoded bitmap: requests of one URL with equal decode targets share it.
    struct BitmapKey: Hashable, Sendable {
        var url: URL
        var target: PixelSize
    }

    /// A rendered grid and where its picture came from this time (memory, disk or network).
    struct RenderedThumbnail: Sendable {
        var cells: CellBuffer
        var origin: ThumbnailOrigin
    }

    /// A request the rendered-grid cache could not answer: joins or starts its render job, counting the request.
    /// Where the picture came from goes to the awaiting task's `ThumbnailLoadReport`, if it has one.
    func load(_ request: ThumbnailRequest, priority: RequestPriority) async throws -> CellBuffer {
        let report = ThumbnailLoadReport.current
        // An equal request's job may have finished between `thumbnail`'s probe and this await: its grid is in memory
        // now, and rendering it again would only waste a render (it happened at start-up, when a slot and the
        // prefetch asked for the same thumbnail).
        if let cells = rendered.value(for: request) {
            counters.add(\.memoryHits)
            report?.origin = .memory
            return cells
        }
        if let failure = rememberedFailures.value(for: request.url) {
            counters.add(\.failuresRemembered)
            throw failure
        }
        let counted = priority != .prefetch
        if counted { counters.add(\.requestsStarted) }
        do {
            let thumbnail = try await joinRenderJob(request, priority: priority)
            if counted { counters.add(\.requestsCompleted) }
            report?.origin = thumbnail.origin
            return thumbnail.cells
        } catch is CancellationError {
            counters.add(counted ? \.requestsCancelled : \.prefetchesCancelled)
            throw CancellationError()
        } catch {
            if counted { counters.add(\.requestsFailed) }
            throw error
        }
    }

    private func joinRenderJob(_ request: ThumbnailRequest,
                               priority: RequestPriority) async throws -> RenderedThumbnail {
        let (subscription, joined) = renderJobs.subscribe(request, priority: priority) {
            do {
                return try await self.makeThumbnail(request)
            } catch let failure as PipelineError where failure.isRemembered {
                // Remembered before the job ends, so that no request can start between its end and its answer.
                self.rememberedFailures.set(failure, for: request.url, cost: 1)
                throw failure
            }
        }
        if joined { counters.add(\.coalesced) }
        let url = request.url
        renderRequestsByURL[url, default: [:]][request, default: 0] += 1
        defer {
            renderRequestsByURL[url]?[request]? -= 1
            if renderRequestsByURL[url]?[request] == 0 { renderRequestsByURL[url]?[request] = nil }
            if renderRequestsByURL[url]?.isEmpty == true { renderRequestsByURL[url] = nil }
        }
        // A more urgent subscriber raises its download's priority: it may start, or preempt, now.
        if priority > .prefetch, !downloadQueue.waiting.isEmpty { rebalanceDownloads() }
        return try await subscription.value()
    }

    private func makeThumbnail(_ request: ThumbnailRequest) async throws -> RenderedThumbnail {
        let key = BitmapKey(url: request.url, target: processing.decodeTarget(request))
        let image: DecodedImage
        let fit: PictureFit
        let origin: ThumbnailOrigin
        // A decode's memory stays reserved until its bitmap is rendered: a huge bitmap waiting for its render holds
        // as much as one being decoded.
        var reserved = 0
        defer { processing.decodeBudget.release(reserved) }
        if let cached = bitmapInMemory(for: request, key: key) {
            counters.add(\.memoryHits)
            (image, fit) = cached
            origin = .memory
        } else {
            ((image, fit, reserved), origin) = try await decodedImage(request)
            bitmaps.set(image, for: key, cost: image.bitmap.pixels.count + 64)
        }
        try Task.checkCancellation()
        let cells = await Self.render(image, fit, request, with: processing)
        counters.add(\.renders)
        rendered.set(cells, for: request, cost: cells.cells.count * MemoryLayout<Cell>.stride + 64)
        return RenderedThumbnail(cells: cells, origin: origin)
    }

    /// A decoded bitmap in memory that draws this request without enlarging it: the request's own (same URL and
    /// decode target), else the smallest of that URL's bitmaps that covers the pixels the request's fit needs, or
    /// holds the whole image. So another size of a thumbnail (a zoom, a resize) is drawn from memory, not decoded
    /// again from its bytes (which may have left memory, or never been there: a local file is read anew).
    private func bitmapInMemory(for request: ThumbnailRequest, key: BitmapKey) -> (DecodedImage, PictureFit)? {
        func fit(_ image: DecodedImage) -> PictureFit {
            processing.fit(PixelSize(width: image.originalWidth, height: image.originalHeight), request)
        }
        if let cached = bitmaps.value(for: key) { return (cached, fit(cached)) }
        var best: (key: BitmapKey, image: DecodedImage, fit: PictureFit)?
        for (other, image) in bitmaps.entries(where: { $0.url == request.url }) {
            let bitmap = image.bitmap, fit = fit(image)
            let whole = bitmap.width >= image.originalWidth && bitmap.height >= image.originalHeight
            guard whole || PixelSize(width: bitmap.width, height: bitmap.height).covers(fit.decodeSize) else {
                continue
            }
            if let best, best.image.bitmap.pixels.count <= bitmap.pixels.count { continue }
            best = (other, image, fit)
        }
        guard let best else { return nil }
        _ = bitmaps.value(for: best.key)  // marks it as just used
        return (best.image, best.fit)
    }

    /// Downloads (or reads from a cache) and decodes. A disk cache entry that does not decode is discarded and the
    /// image is fetched again, so a damaged cache file is never drawn.
    private func decodedImage(_ request: ThumbnailRequest) async throws -> (Decoded, ThumbnailOrigin) {
        let (data, fromDisk, origin) = try await bytes(for: request.url)
        try Task.checkCancellation()
        do {
            return (try await Self.decode(data.bytes, for: request, with: processing, counters: counters), origin)
        } catch PipelineError.decode where fromDisk {
            counters.add(\.diskEntriesDiscarded)
            diskCache?.remove(request.url)
            downloads.removeValue(for: request.url)
            let (fresh, _, freshOrigin) = try await bytes(for: request.url, skippingDisk: true)
            try Task.checkCancellation()
            return (try await Self.decode(fresh.bytes, for: request, with: processing, counters: counters),
                    freshOrigin)
        }
    }

    /// A decoded bitmap, the fit it was decoded for, and the decode memory it holds until it is rendered.
    typealias Decoded = (image: DecodedImage, fit: PictureFit, reserved: Int)

    /// Reads the header once (`EncodedImage`) and fits the picture from it, then decodes once it is the decode's turn (a long one waits for the long
    /// ones before it, `LongDecodeLane`) and its memory is reserved from the budget concurrent decodes share
    /// (waiting while others hold it); the caller releases the `reserved` bytes when it is done with the bitmap.
    /// - Throws: `PipelineError`, or `CancellationError` while waiting for its turn or memory.
    @concurrent
    private static func decode(_ bytes: [UInt8], for request: ThumbnailRequest, with processing: ImageProcessing,
                               counters: PipelineCounters) async throws -> Decoded {
        counters.add(\.decodes)
        let image = EncodedImage(bytes)
        let fit = processing.fit(image.size, request)
        let memory = processing.decodeMemory(image, fit)
        do {
            return try await processing.longDecodes.run(work: processing.decodeWork(image, fit)) {
                try await processing.decodeBudget.reserve(memory)
                do {
                    // One whose row left while it waited never starts; a started one stops part way (between rows,
                    // scans' rows or frames: `DecodeError.cancelled`).
                    try Task.checkCancellation()
                    let decoded = try processing.decode(image, fit)
                    if decoded.fromEmbeddedThumbnail { counters.add(\.embeddedThumbnails) }
                    return (decoded, fit, memory)
                } catch {
                    processing.decodeBudget.release(memory)
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
    private static func render(_ image: DecodedImage, _ fit: PictureFit, _ request: ThumbnailRequest,
                               with processing: ImageProcessing) async -> CellBuffer {
        processing.render(image, fit, request)
    }
}
