/// A smaller copy of the picture that its file carries (a JPEG's EXIF thumbnail, a HEIF thumbnail item), found while
/// the header is read. Decoding it instead of the full image saves nearly all of a camera photo's decoding when it
/// has the pixels the caller needs (`ImageHeader.embeddedThumbnail(for:)` decides).
struct EmbeddedThumbnail: Sendable {
    /// Its size in displayed orientation.
    var size: PixelSize
    var source: Source

    enum Source: Sendable {
        /// A JPEG inside the EXIF segment: its bytes in the file, its segments (carrying the main image's EXIF
        /// orientation, which an EXIF thumbnail follows) and its scans.
        case exif(Range<Int>, JPEGMarkers, JPEGScanWork)
        /// A thumbnail item of a HEIF or AVIF primary image; libheif turns it by the item's own `irot` and `imir`.
        case heif(itemID: UInt32, bitDepth: Int)
    }

    /// The EXIF thumbnail at `range` of a JPEG whose own segments say `orientation`; nil when those bytes are not a
    /// JPEG with a frame header and a scan. A thumbnail damaged further on is found when it is decoded.
    static func exif(_ bytes: UnsafeRawBufferPointer, at range: Range<Int>,
                     orientation: ExifOrientation) -> EmbeddedThumbnail? {
        let thumbnail = UnsafeRawBufferPointer(rebasing: bytes[range])
        guard ImageFormat(sniffing: thumbnail) == .jpeg else { return nil }
        var markers = JPEGMarkers(scanning: thumbnail)
        let scans = JPEGScanWork(scanning: thumbnail)
        guard let stored = markers.frameSize, stored.width > 0, stored.height > 0, !markers.endsInHeaders,
              scans.scans > 0 else { return nil }
        markers.orientation = orientation
        markers.exifThumbnail = nil
        return EmbeddedThumbnail(size: orientation.displayedSize(of: stored), source: .exif(range, markers, scans))
    }

    /// The bytes decoding it with `options` allocates.
    func memoryCost(options: DecodeOptions) -> Int {
        switch source {
        case .exif(_, let markers, _): JPEGDecoder.memoryCost(displayed: size, markers: markers, options: options)
        case .heif(_, let bitDepth): DecodeCost.heif(size, bitDepth: bitDepth)
        }
    }

    /// About how much work decoding it is, in pixels visited (as `ImageHeader.decodeWork`).
    var decodeWork: Int {
        if case .exif(_, _, let scans) = source { return 64 * scans.blockScans }
        return size.width * size.height
    }
}

extension ImageHeader {
    /// The embedded thumbnail to decode instead of the full image for `options`, or nil for the full image: the one
    /// rule that the decoder, the memory cost and the decode work follow.
    ///
    /// A thumbnail is used only when the caller names a target size and the thumbnail covers it in displayed
    /// orientation (so it is never enlarged: a picture in pixels, the detail pane or a large `render` that needs more
    /// gets the full image), it has fewer pixels than the image, and its aspect ratio is the image's within 2% or a
    /// pixel (a thumbnail of another picture, or one letterboxed into 160x120, is not used).
    func embeddedThumbnail(for options: DecodeOptions) -> EmbeddedThumbnail? {
        guard let thumbnail = embeddedThumbnail, let target = options.targetSize, thumbnail.size.covers(target),
              thumbnail.size.width * thumbnail.size.height < width * height
        else { return nil }
        let expectedHeight = Double(thumbnail.size.width) * Double(height) / Double(width)
        guard abs(Double(thumbnail.size.height) - expectedHeight) <= max(1, expectedHeight / 50) else { return nil }
        return thumbnail
    }
}

extension ImageDecoder {
    /// The embedded thumbnail decoded as the image of `header` (its full size reported, `fromEmbeddedThumbnail` set),
    /// or nil when the thumbnail fails to decode or decodes with a warning (a truncated or corrupt one): the caller
    /// then decodes the full image. The full image's pixel limit applies as if it were decoded, so whether a file
    /// is refused never depends on the size it is shown at.
    static func decode(_ thumbnail: EmbeddedThumbnail, of header: ImageHeader, in buffer: UnsafeRawBufferPointer,
                       options: DecodeOptions) throws(DecodeError) -> DecodedImage? {
        try options.checkPixelCount(width: header.width, height: header.height, format: header.format)
        do throws(DecodeError) {
            var image: DecodedImage
            switch thumbnail.source {
            case .exif(let range, let markers, let scans):
                image = try JPEGDecoder.decode(UnsafeRawBufferPointer(rebasing: buffer[range]), read: (markers, scans),
                                               options: options)
            case .heif(let itemID, _):
                image = try HEIFDecoder.decodeThumbnail(buffer, format: header.format, itemID: itemID,
                                                        size: thumbnail.size, options: options)
            }
            guard image.warning == nil else { return nil }
            image.originalWidth = header.width
            image.originalHeight = header.height
            image.fromEmbeddedThumbnail = true
            return image
        } catch {
            if case .cancelled = error { throw error }
            return nil
        }
    }
}
