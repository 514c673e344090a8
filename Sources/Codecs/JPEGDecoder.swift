import CTurboJPEG
import Pixels

/// JPEG through the TurboJPEG API of libjpeg-turbo: return codes instead of setjmp, DCT scaling, CMYK.
///
/// This machine has libjpeg-turbo 2.1, so the TurboJPEG 2 functions for the headers; the pixels come from libjpeg's
/// own API in the shim (`cturbojpeg_decompress`, what `tjDecompress2` does), because only that one lets a decode
/// stop part way when its task is cancelled (`DecodeCancellation`). Warnings such as "Premature end of JPEG file" do
/// not stop decoding, they become `DecodedImage.warning` and the image is drawn as far as the data goes.
enum JPEGDecoder {
    /// Decodes `bytes`; `read` are the segments and scans `ImageDecoder.header` found, walked here when nil.
    static func decode(_ bytes: UnsafeRawBufferPointer, read: (JPEGMarkers, JPEGScanWork)? = nil,
                       options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        guard let handle = tjInitDecompress() else {
            throw .unsupported(.jpeg, reason: "tjInitDecompress failed: \(errorText(nil))")
        }
        defer { tjDestroy(handle) }
        let jpeg = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let jpegSize = UInt(bytes.count)

        let markers = read?.0 ?? JPEGMarkers(scanning: bytes)
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = tjDecompressHeader3(handle, jpeg, jpegSize, &width, &height, &subsampling, &colorspace)
        // libjpeg pads data that ends early with an end-of-image marker, so a cut inside the headers shows up as a
        // bogus table, a missing SOS, or success with a 0x0 image: say what really happened.
        let cutShort = "the file is cut short: it ends inside its headers, before any image data"
        guard header == 0 else {
            let reason = "tjDecompressHeader3: \(errorText(handle))"
            throw .corrupt(.jpeg, reason: markers.endsInHeaders ? "\(cutShort) (\(reason))" : reason)
        }
        guard width > 0, height > 0 else {
            throw .corrupt(.jpeg,
                           reason: markers.endsInHeaders ? cutShort : "tjDecompressHeader3 found no frame header")
        }
        try options.checkPixelCount(width: Int(width), height: Int(height), format: .jpeg)
        try options.checkScanWork(read?.1 ?? JPEGScanWork(scanning: bytes))

        let stored = PixelSize(width: Int(width), height: Int(height))
        let factor = scalingFactor(for: stored,
                                   covering: options.targetSize.map(markers.orientation.displayedSize(of:)))
        let scaledWidth = cturbojpeg_scaled(width, factor), scaledHeight = cturbojpeg_scaled(height, factor)
        try options.checkMemory(DecodeCost.jpeg(scaled: PixelSize(width: Int(scaledWidth), height: Int(scaledHeight)),
                                                orientation: markers.orientation,
                                                coefficientBytes: markers.coefficientBytes))

        // CMYK and YCCK JPEGs decode only to CMYK; those bytes are converted to RGBA in place.
        let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        var warning: String?
        var bitmap = try makeBitmap(width: Int(scaledWidth), height: Int(scaledHeight)) { pixels throws(DecodeError) in
            var message = [CChar](repeating: 0, count: Int(JMSG_LENGTH_MAX))
            var warningText = [CChar](repeating: 0, count: Int(JMSG_LENGTH_MAX))
            let status = cturbojpeg_decompress(jpeg, jpegSize, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                               scaledWidth, scaledHeight, isCMYK ? 1 : 0, factor,
                                               DecodeCancellation.cCallback, &message, &warningText)
            switch status {
            case 0: return
            case 1:
                warning = "the JPEG data is damaged or cut short (\(text(warningText))); "
                    + "the image is drawn as far as it goes"
            case -2: throw .cancelled
            default: throw .corrupt(.jpeg, reason: "libjpeg: \(text(message))")
            }
        }
        if isCMYK {
            convertCMYKToRGBA(&bitmap.pixels, inverted: markers.hasAdobeSegment)
        }
        bitmap = bitmap.applying(markers.orientation)
        let original = markers.orientation.displayedSize(of: stored)
        return DecodedImage(bitmap: bitmap, format: .jpeg, originalWidth: original.width,
                            originalHeight: original.height, warning: warning)
    }

    /// The displayed size (EXIF orientation applied) from the frame header, as `decode` will report it; TurboJPEG
    /// reads the headers only when the walk finds no usable frame header (a height defined later by DNL, say).
    static func displayedSize(_ bytes: UnsafeRawBufferPointer,
                              markers: JPEGMarkers) throws(DecodeError) -> PixelSize {
        if let size = markers.frameSize, size.width > 0, size.height > 0 {
            return markers.orientation.displayedSize(of: size)
        }
        guard let handle = tjInitDecompress() else {
            throw .unsupported(.jpeg, reason: "tjInitDecompress failed: \(errorText(nil))")
        }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(bytes.count),
                                  &width, &height, &subsampling, &colorspace) == 0, width > 0, height > 0 else {
            throw .corrupt(.jpeg, reason: markers.endsInHeaders
                ? "the file is cut short: it ends inside its headers, before any image data"
                : "tjDecompressHeader3: \(errorText(handle))")
        }
        return markers.orientation.displayedSize(of: PixelSize(width: Int(width), height: Int(height)))
    }

    /// What `decode` will allocate (`DecodeCost.jpeg`), from the displayed size and the segments `decode` reads.
    static func memoryCost(displayed: PixelSize, markers: JPEGMarkers, options: DecodeOptions) -> Int {
        // A quarter turn is its own inverse: the displayed size turned back is the stored one.
        let stored = markers.orientation.displayedSize(of: displayed)
        let factor = scalingFactor(for: stored, covering: options.targetSize.map(markers.orientation.displayedSize(of:)))
        let scaled = PixelSize(width: Int(cturbojpeg_scaled(Int32(clamping: stored.width), factor)),
                               height: Int(cturbojpeg_scaled(Int32(clamping: stored.height), factor)))
        return DecodeCost.jpeg(scaled: scaled, orientation: markers.orientation,
                               coefficientBytes: markers.coefficientBytes)
    }

    /// The scaling factors TurboJPEG's DCT can decode at that are not larger than 1, smallest first.
    static let reducingFactors: [tjscalingfactor] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return [tjscalingfactor(num: 1, denom: 1)] }
        return UnsafeBufferPointer(start: factors, count: Int(count))
            .filter { $0.num <= $0.denom }
            .sorted { Int($0.num) * Int($1.denom) < Int($1.num) * Int($0.denom) }
    }()

    /// The smallest DCT scale whose output still covers `target` in both dimensions; 1/1 when nothing smaller does.
    static func scalingFactor(for size: PixelSize, covering target: PixelSize?) -> tjscalingfactor {
        let full = tjscalingfactor(num: 1, denom: 1)
        guard let target else { return full }
        let width = Int32(clamping: size.width), height = Int32(clamping: size.height)
        return reducingFactors.first { factor in
            PixelSize(width: Int(cturbojpeg_scaled(width, factor)), height: Int(cturbojpeg_scaled(height, factor)))
                .covers(target)
        } ?? full
    }

    /// Turns 4-byte CMYK pixels into opaque RGBA in place, with the naive ink model browsers use for untagged CMYK.
    ///
    /// Photoshop, and libjpeg writers imitating it, store inverted ink values in JPEGs with an Adobe segment, which
    /// is where CMYK JPEGs come from in practice; browsers treat Adobe CMYK that way and so do we.
    static func convertCMYKToRGBA(_ pixels: inout [UInt8], inverted: Bool) {
        pixels.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                var c = UInt32(p[i]), m = UInt32(p[i + 1]), y = UInt32(p[i + 2]), k = UInt32(p[i + 3])
                if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
                // Now 255 means "no ink": channel = (1 - ink) * (1 - black), rounded.
                p[i] = UInt8((c * k + 127) / 255)
                p[i + 1] = UInt8((m * k + 127) / 255)
                p[i + 2] = UInt8((y * k + 127) / 255)
                p[i + 3] = 255
            }
        }
    }

    /// A NUL-terminated C text from the shim.
    private static func text(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// TurboJPEG's message for the last error on `handle` (or the global one for a nil handle).
    private static func errorText(_ handle: tjhandle?) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}
