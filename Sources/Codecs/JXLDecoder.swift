import Basics
import CJxl
import Pixels

/// JPEG XL through libjxl (loaded on first use, see `CJxl`): the first frame (an animation's, composited), turned as
/// the file's orientation says (libjxl applies it unless told not to), at full size, RGBA with straight alpha.
///
/// Colour: a lossy (XYB) file is converted to sRGB by libjxl, whatever profile it was encoded from; a lossless file
/// keeps the colour space it was stored in (libjxl 0.7 converts only XYB), which is sRGB for almost every such file.
///
/// Debian's libjxl prints a trace of every failure to stderr: each call into it runs inside
/// `QuietStandardError.silencing`, so a damaged file cannot write over the table.
enum JXLDecoder {
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        try QuietStandardError.silencing { () throws(DecodeError) in try decodeQuietly(bytes, options: options) }
    }

    /// The displayed size (after orientation) the header declares.
    static func size(_ bytes: UnsafeRawBufferPointer) throws(DecodeError) -> PixelSize {
        try QuietStandardError.silencing { () throws(DecodeError) in try sizeQuietly(bytes) }
    }

    private static func decodeQuietly(_ bytes: UnsafeRawBufferPointer,
                                      options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        let jxl = try library()
        guard let decoder = jxl.DecoderCreate(nil) else {
            throw .unsupported(.jxl, reason: "JxlDecoderCreate: out of memory")
        }
        defer { jxl.DecoderDestroy(decoder) }
        let events = JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FULL_IMAGE.rawValue
        try check(jxl.DecoderSubscribeEvents(decoder, Int32(events)), "JxlDecoderSubscribeEvents")
        try check(jxl.DecoderSetUnpremultiplyAlpha(decoder, 1), "JxlDecoderSetUnpremultiplyAlpha")
        try check(jxl.DecoderSetInput(decoder, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count),
                  "JxlDecoderSetInput")
        jxl.DecoderCloseInput(decoder)

        var info = JxlBasicInfo()
        var size = PixelSize(width: 0, height: 0)
        // Until libjxl asks for the output buffer: the header (checked against the limits) and the colour encoding.
        while true {
            let status = jxl.DecoderProcessInput(decoder)
            if status == JXL_DEC_BASIC_INFO {
                try check(jxl.DecoderGetBasicInfo(decoder, &info), "JxlDecoderGetBasicInfo")
                size = displayedSize(info)
                try options.checkPixelCount(width: size.width, height: size.height, format: .jxl)
                try options.checkMemory(DecodeCost.jxl(size))
            } else if status == JXL_DEC_COLOR_ENCODING {
                // Only honoured for XYB files; others have no choice and keep their own encoding.
                var sRGB = standardRGB(gray: info.num_color_channels == 1)
                _ = jxl.DecoderSetPreferredColorProfile(decoder, &sRGB)
            } else if status == JXL_DEC_NEED_IMAGE_OUT_BUFFER {
                break
            } else {
                throw failure(status, "JxlDecoderProcessInput", decodedAnything: false)
            }
        }
        var format = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN,
                                    align: 0)
        var needed = 0
        try check(jxl.DecoderImageOutBufferSize(decoder, &format, &needed), "JxlDecoderImageOutBufferSize")
        guard needed == size.width * size.height * 4 else {
            throw .corrupt(.jxl, reason: "libjxl asks for \(needed) bytes for a \(size) image")
        }
        let bitmap = try makeBitmap(width: size.width, height: size.height) { pixels throws(DecodeError) in
            try check(jxl.DecoderSetImageOutBuffer(decoder, &format, pixels.baseAddress!, pixels.count),
                      "JxlDecoderSetImageOutBuffer")
            let status = jxl.DecoderProcessInput(decoder)
            guard status == JXL_DEC_FULL_IMAGE else {
                throw failure(status, "JxlDecoderProcessInput", decodedAnything: true)
            }
        }
        return DecodedImage(bitmap: bitmap, format: .jxl, originalWidth: size.width, originalHeight: size.height)
    }

    private static func sizeQuietly(_ bytes: UnsafeRawBufferPointer) throws(DecodeError) -> PixelSize {
        let jxl = try library()
        guard let decoder = jxl.DecoderCreate(nil) else {
            throw .unsupported(.jxl, reason: "JxlDecoderCreate: out of memory")
        }
        defer { jxl.DecoderDestroy(decoder) }
        try check(jxl.DecoderSubscribeEvents(decoder, Int32(JXL_DEC_BASIC_INFO.rawValue)), "JxlDecoderSubscribeEvents")
        try check(jxl.DecoderSetInput(decoder, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count),
                  "JxlDecoderSetInput")
        jxl.DecoderCloseInput(decoder)
        let status = jxl.DecoderProcessInput(decoder)
        guard status == JXL_DEC_BASIC_INFO else {
            throw failure(status, "JxlDecoderProcessInput", decodedAnything: false)
        }
        var info = JxlBasicInfo()
        try check(jxl.DecoderGetBasicInfo(decoder, &info), "JxlDecoderGetBasicInfo")
        return displayedSize(info)
    }

    private static func library() throws(DecodeError) -> cjxl_library {
        var message: UnsafePointer<CChar>?
        guard let jxl = cjxl_load(&message)?.pointee else {
            throw .unsupported(.jxl, reason: message.map { String(cString: $0) } ?? "libjxl did not load")
        }
        return jxl
    }

    /// Orientations 5 to 8 turn the image a quarter: the stored width becomes the displayed height.
    private static func displayedSize(_ info: JxlBasicInfo) -> PixelSize {
        let stored = PixelSize(width: Int(info.xsize), height: Int(info.ysize))
        return info.orientation.rawValue >= 5 ? stored.transposed : stored
    }

    /// sRGB (or its grey), the encoding lossy files are converted to.
    private static func standardRGB(gray: Bool) -> JxlColorEncoding {
        var encoding = JxlColorEncoding()
        encoding.color_space = gray ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB
        encoding.white_point = JXL_WHITE_POINT_D65
        encoding.primaries = JXL_PRIMARIES_SRGB
        encoding.transfer_function = JXL_TRANSFER_FUNCTION_SRGB
        encoding.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL
        return encoding
    }

    private static func check(_ status: JxlDecoderStatus, _ function: String) throws(DecodeError) {
        guard status == JXL_DEC_SUCCESS else { throw failure(status, function, decodedAnything: false) }
    }

    /// An unexpected libjxl status as a typed error. libjxl gives no reason beyond the status.
    private static func failure(_ status: JxlDecoderStatus, _ function: String,
                                decodedAnything: Bool) -> DecodeError {
        switch status {
        case JXL_DEC_NEED_MORE_INPUT:
            .corrupt(.jxl, reason: "\(function): the data ends early (cut short)")
        case JXL_DEC_SUCCESS:
            .corrupt(.jxl, reason: "\(function): the file ends before its first frame")
        case JXL_DEC_ERROR:
            .corrupt(.jxl, reason: "\(function): the codestream is invalid"
                + (decodedAnything ? " (found while decoding the pixels)" : ""))
        default:
            .corrupt(.jxl, reason: "\(function): unexpected libjxl status \(status.rawValue)")
        }
    }
}
