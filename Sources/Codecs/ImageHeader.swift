import FoundationEssentials

/// What an image's header says about it: enough to plan a decode without decoding a pixel.
///
/// A caller that fits the picture inside a box needs its aspect ratio before it can say how many pixels the decoder
/// must cover: a 16:9 photo in a 2:1 box of cells fills the width and only half the height, and decoding for the
/// whole box would make JPEG decode at twice the scale it needs (every DCT step costs more entropy decoding).
///
/// A header read from bytes also keeps what the memory cost, the decode work and the decoder need from the file's
/// segments (`Details`), so that an `EncodedImage` is planned and decoded from one reading of its header.
public struct ImageHeader: Sendable {
    /// The format sniffed from the bytes.
    public var format: ImageFormat
    /// The full-size width in displayed orientation (after EXIF rotation): `DecodedImage.originalWidth` to be.
    public var width: Int
    /// The full-size height in displayed orientation: `DecodedImage.originalHeight` to be.
    public var height: Int
    /// What the format's own segments say beyond the size; `.none` for a header made by hand.
    var details: Details = .none
    /// The smaller copy of the picture the file carries, when it has a usable one (`embeddedThumbnail(for:)` says
    /// when it is decoded instead).
    var embeddedThumbnail: EmbeddedThumbnail?

    /// The facts of one format that the cost, the work and the decoder read, gathered while the header is read.
    enum Details: Sendable {
        case none
        /// The segments before the first scan, and the blocks every scan visits (`JPEGScanWork`).
        case jpeg(JPEGMarkers, JPEGScanWork)
        /// The bytes of the copy without unused chunks (`PNGChunks.essentialCopyBytes`; 0 when none is made).
        case png(copiedBytes: Int)
        case webp(animated: Bool, lossless: Bool)
        case heif(bitDepth: Int)
    }

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// The full size in displayed orientation.
    public var size: PixelSize { PixelSize(width: width, height: height) }
}

extension ImageHeader: Equatable {
    /// Headers are equal when they declare the same format and size; `details` follow from the same bytes.
    public static func == (lhs: ImageHeader, rhs: ImageHeader) -> Bool {
        lhs.format == rhs.format && lhs.width == rhs.width && lhs.height == rhs.height
    }
}

extension ImageDecoder {
    /// The format and displayed size the data declares, read from the headers and segments only (a JPEG's scans
    /// are walked with `memchr`, not decoded): microseconds to a millisecond, whatever the image's size. Limits are
    /// not checked here; `decode` checks them.
    public static func header(of bytes: some ContiguousBytes) throws(DecodeError) -> ImageHeader {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(DecodeError) -> ImageHeader in try header(buffer: buffer) }
        }.get()
    }

    static func header(buffer: UnsafeRawBufferPointer) throws(DecodeError) -> ImageHeader {
        #if DEBUG
        HeaderReadCount.current?.add()
        #endif
        guard !buffer.isEmpty else { throw .empty }
        guard let format = ImageFormat(sniffing: buffer) else {
            throw .unknownFormat(firstBytes: DecodeError.describeStart(of: buffer))
        }
        let size: PixelSize
        let details: ImageHeader.Details
        var thumbnail: EmbeddedThumbnail?
        switch format {
        case .jpeg:
            let markers = JPEGMarkers(scanning: buffer)
            size = try JPEGDecoder.displayedSize(buffer, markers: markers)
            details = .jpeg(markers, JPEGScanWork(scanning: buffer))
            thumbnail = markers.exifThumbnail.flatMap {
                EmbeddedThumbnail.exif(buffer, at: $0, orientation: markers.orientation)
            }
        case .png:
            size = try PNGDecoder.size(buffer)
            details = .png(copiedBytes: PNGChunks.essentialCopyBytes(buffer))
        case .gif:
            size = try GIFDecoder.size(buffer)
            details = .none
        case .webp:
            let features = try WebPDecoder.features(buffer)
            size = features.size
            details = .webp(animated: features.animated, lossless: features.lossless)
        case .heif, .avif:
            let primary = try HEIFDecoder.primaryImage(buffer, format: format)
            size = primary.size
            details = .heif(bitDepth: primary.bitDepth)
            thumbnail = primary.thumbnail
        case .jxl:
            size = try JXLDecoder.size(buffer)
            details = .none
        }
        var header = ImageHeader(format: format, width: size.width, height: size.height)
        header.details = details
        header.embeddedThumbnail = thumbnail
        return header
    }
}
