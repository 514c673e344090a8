import Codecs
import FoundationEssentials
import Pixels
import Synchronization

/// The demo's row pictures: a bundled photo, shrunk, with the row's number drawn large over it (white on a darkened
/// band), encoded as a JPEG. Every row's picture is its own, so a picture shown in the wrong row is seen at once.
///
/// Each photo is decoded and shrunk once; the JPEGs are made on the first request and kept (up to `keptPictures`),
/// so scrolling back asks the server for nothing it has to draw again.
final class NumberedPhotos: Sendable {
    /// The largest side of a numbered photo: bigger than any thumbnail a terminal shows, small enough to make fast.
    static let maxSide = 320
    /// The most encoded pictures kept; past it the oldest half is dropped.
    static let keptPictures = 2048

    private let directory: URL
    private let photos = Mutex<[String: Bitmap]>([:])
    private let pictures = Mutex<(byKey: [String: [UInt8]], order: [String])>(([:], []))

    init(directory: URL) {
        self.directory = directory
    }

    /// The JPEG of `file` with `number` on it, or nil when the file is not a photo the decoders read.
    func jpeg(file: String, number: Int) -> [UInt8]? {
        let key = "\(file)#\(number)"
        if let kept = pictures.withLock({ $0.byKey[key] }) { return kept }
        guard let photo = shrunkPhoto(file),
              let jpeg = try? JPEGEncoder.encode(Self.stamp(number, on: photo), quality: 80) else { return nil }
        pictures.withLock { kept in
            if kept.byKey[key] == nil { kept.order.append(key) }
            kept.byKey[key] = jpeg
            if kept.order.count > Self.keptPictures {
                let dropped = kept.order.prefix(Self.keptPictures / 2)
                for old in dropped { kept.byKey[old] = nil }
                kept.order.removeFirst(dropped.count)
            }
        }
        return jpeg
    }

    /// `photo` with `number` across its middle, in white on the photo darkened to a third, so it reads on any photo.
    static func stamp(_ number: Int, on photo: Bitmap) -> Bitmap {
        var picture = photo
        let layout = DigitLayout(text: String(number), width: photo.width, height: photo.height,
                                 widthShare: 0.9, heightShare: 0.6)
        if let band = layout.bounds {
            for y in band.rows {
                for x in band.columns {
                    let i = (y * photo.width + x) * 4
                    for c in 0..<3 { picture.pixels[i + c] /= 3 }
                }
            }
        }
        for square in layout.squares {
            for y in square.rows {
                for x in square.columns { picture[x, y] = RGBA(r: 255, g: 255, b: 255) }
            }
        }
        return picture
    }

    /// The photo decoded and shrunk to `maxSide`, decoded on first use.
    private func shrunkPhoto(_ file: String) -> Bitmap? {
        if let photo = photos.withLock({ $0[file] }) { return photo }
        guard let decoded = try? ImageDecoder.decodeFile(at: directory.appendingPathComponent(file).path) else {
            return nil
        }
        let photo = Self.shrink(decoded.bitmap, maxSide: Self.maxSide)
        photos.withLock { $0[file] = photo }
        return photo
    }

    /// `bitmap` scaled down to fit `maxSide` by averaging the source pixels each output pixel covers, opaque.
    static func shrink(_ bitmap: Bitmap, maxSide: Int) -> Bitmap {
        let factor = max(1, Double(max(bitmap.width, bitmap.height)) / Double(maxSide))
        let width = max(1, Int(Double(bitmap.width) / factor)), height = max(1, Int(Double(bitmap.height) / factor))
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            let y0 = y * bitmap.height / height, y1 = max(y0 + 1, (y + 1) * bitmap.height / height)
            for x in 0..<width {
                let x0 = x * bitmap.width / width, x1 = max(x0 + 1, (x + 1) * bitmap.width / width)
                var sum = (0, 0, 0)
                for sy in y0..<y1 {
                    for sx in x0..<x1 {
                        let i = (sy * bitmap.width + sx) * 4
                        sum.0 += Int(bitmap.pixels[i]); sum.1 += Int(bitmap.pixels[i + 1]); sum.2 += Int(bitmap.pixels[i + 2])
                    }
                }
                let count = (y1 - y0) * (x1 - x0), o = (y * width + x) * 4
                pixels[o] = UInt8(sum.0 / count); pixels[o + 1] = UInt8(sum.1 / count); pixels[o + 2] = UInt8(sum.2 / count)
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }
}
