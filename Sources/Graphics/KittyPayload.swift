import Pixels

/// The pixel data of a kitty upload and the keys that describe it: raw RGB(A), zlib-deflated RGB(A) (`o=z`), or a
/// PNG (`f=100`). Compressed where it pays: a picture whose compressed form is not clearly smaller goes raw.
public struct KittyPayload: Sendable, Equatable {
    /// How the pixels travel.
    public enum Encoding: String, Sendable, CaseIterable, CustomStringConvertible {
        /// `f=24` or `f=32`, as is: what a local terminal decodes fastest, and the most bytes.
        case raw
        /// The same pixels deflated (`o=z`).
        case zlib
        /// A PNG (`f=100`): each row predicted from its neighbours first, so photos deflate far better.
        case png

        public var description: String { rawValue }
    }

    /// The format keys (`f=`, and `s=`, `v=`, `o=` where they apply), without a separator at either end.
    public var keys: String
    /// The bytes to send, before base64.
    public var bytes: [UInt8]
    /// How they were encoded: the requested encoding, or raw where it did not pay.
    public var encoding: Encoding

    /// What uploads use: PNG, chosen by measurement on the demo's photo thumbnails (`Bench kitty`; docs/pixels.md,
    /// "Kitty upload bytes").
    public static let preferred = Encoding.png
    /// Compression is kept only when it leaves at most this share of the raw bytes; otherwise the terminal is
    /// spared the decoding for little gain.
    public static let worthwhileShare = 0.9
    /// Pictures of fewer raw bytes go raw: a few chunks at most, where compression saves next to nothing.
    public static let smallestCompressed = 2048
    /// zlib's level (1 fastest, 9 smallest): 1. On the demo's list thumbnails PNG at level 1 is 0.48x raw in half
    /// level 6's time (0.46x): about 1 ms a thumbnail, encoded where the upload is written.
    public static let level: Int32 = 1

    /// `bitmap`'s pixels as `encoding` asks where that pays: RGB (`f=24`) when every pixel is opaque, RGBA
    /// (`f=32`) otherwise.
    public init(_ bitmap: Bitmap, encoding: Encoding = Self.preferred, level: Int32 = Self.level) {
        let opaque = stride(from: 3, to: bitmap.pixels.count, by: 4).allSatisfy { bitmap.pixels[$0] == 255 }
        let channels = opaque ? 3 : 4
        let raw = opaque ? Self.rgb(bitmap.pixels) : bitmap.pixels
        let size = "s=\(bitmap.width),v=\(bitmap.height)"
        let format = "f=\(opaque ? 24 : 32)"
        self.init(keys: "\(format),\(size)", bytes: raw, encoding: .raw)
        guard encoding != .raw, raw.count >= Self.smallestCompressed else { return }
        let compressed: [UInt8]?
        switch encoding {
        case .raw: compressed = nil
        case .zlib: compressed = Zlib.deflate(raw, level: level)
        case .png: compressed = PNGWriter.png(width: bitmap.width, height: bitmap.height, channels: channels,
                                              pixels: raw, level: level)
        }
        guard let compressed, Double(compressed.count) <= Double(raw.count) * Self.worthwhileShare else { return }
        self.init(keys: encoding == .png ? "f=100" : "\(format),\(size),o=z", bytes: compressed, encoding: encoding)
    }

    init(keys: String, bytes: [UInt8], encoding: Encoding) {
        self.keys = keys
        self.bytes = bytes
        self.encoding = encoding
    }

    /// RGBA pixels without their alpha bytes.
    private static func rgb(_ rgba: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: rgba.count / 4 * 3) { buffer, count in
            var j = 0
            for i in stride(from: 0, to: rgba.count, by: 4) {
                buffer[j] = rgba[i]
                buffer[j + 1] = rgba[i + 1]
                buffer[j + 2] = rgba[i + 2]
                j += 3
            }
            count = j
        }
    }
}
