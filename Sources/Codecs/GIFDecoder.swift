import CGIF
import Pixels

/// GIF through giflib's record-by-record API: every frame composited onto the logical screen (`GIFFrameReader`).
///
/// giflib reports failures as error codes and never prints or exits. Records are read one at a time instead of with
/// `DGifSlurp`, so sizes are checked before anything is allocated and a cut-short file still yields the frames it
/// has. GIFs always decode at full size. When only the first frame is wanted the rest of the file is still walked
/// (its image data skipped, not decompressed), so that a file cut short warns as a cut-short JPEG does. A decode
/// whose task is cancelled stops before the next frame or line (`DecodeCancellation`).
enum GIFDecoder {
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        let file = try GIFFile(bytes)
        var reader = try GIFFrameReader(width: file.screenWidth, height: file.screenHeight, options: options)
        var frames: [AnimationFrame] = []
        var warning: String?
        reading: while true {
            switch try reader.next(from: file.gif, options: options, framesHeld: frames.count) {
            case .frame(let frame):
                frames.append(frame)
                if !options.keepsAnimationFrames {
                    warning = reader.skipRest(of: file.gif, options: options)
                    break reading
                }
            case .end(let why):
                warning = why
                break reading
            }
        }
        guard let first = frames.first else { throw .corrupt(.gif, reason: "the file holds no image") }
        let animation = options.keepsAnimationFrames && frames.count > 1 ? frames : []
        return DecodedImage(bitmap: first.bitmap, format: .gif, originalWidth: reader.width,
                            originalHeight: reader.height, frames: animation, warning: warning)
    }

    /// The logical screen size, which giflib reports as the canvas (`SWidth` x `SHeight`), read by hand.
    static func size(_ bytes: UnsafeRawBufferPointer) throws(DecodeError) -> PixelSize {
        guard bytes.count >= 10 else {
            throw .corrupt(.gif, reason: "the data is cut short inside its logical screen descriptor")
        }
        return PixelSize(width: Int(bytes[6]) | Int(bytes[7]) << 8, height: Int(bytes[8]) | Int(bytes[9]) << 8)
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = GifErrorString(code) else { return "giflib error \(code)" }
        return String(cString: text)
    }
}

/// An open GIF: giflib's handle on bytes in memory, closed with the value. The bytes must outlive it.
final class GIFFile {
    let gif: UnsafeMutablePointer<GifFileType>
    private let source: UnsafeMutablePointer<MemorySource>

    init(_ bytes: UnsafeRawBufferPointer) throws(DecodeError) {
        source = .allocate(capacity: 1)
        source.initialize(to: MemorySource(bytes: bytes))
        var status: Int32 = 0
        guard let gif = DGifOpen(source, { gif, buffer, wanted in
            // giflib's input callback: copy the next `wanted` bytes; fewer means the data ended.
            guard let gif, let buffer, let source = gif.pointee.UserData?.assumingMemoryBound(to: MemorySource.self)
            else { return 0 }
            return Int32(source.pointee.read(into: buffer, count: Int(wanted)))
        }, &status) else {
            source.deallocate()
            throw .corrupt(.gif, reason: "DGifOpen: \(GIFDecoder.errorText(status))")
        }
        self.gif = gif
    }

    /// The logical screen, which every frame is drawn onto.
    var screenWidth: Int { Int(gif.pointee.SWidth) }
    var screenHeight: Int { Int(gif.pointee.SHeight) }

    deinit {
        var status: Int32 = 0
        DGifCloseFile(gif, &status)
        source.deallocate()
    }
}

/// The bytes giflib's input callback reads from.
private struct MemorySource {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    mutating func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        let n = max(0, min(count, bytes.count - offset))
        if n > 0 {
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + offset, byteCount: n)
        }
        offset += n
        return n
    }
}
