import Codecs
import DemoServer
import Foundation
import HTTP
import Pixels
import TestSupport

/// The bench's inputs: the source photo, scaled with grain, the PNGs it is encoded to with the zlib the process
/// links, the demo server's placeholder, and zlib's inflate alone on a PNG's data (the floor under libpng).
extension RenderBench {
    static func sourcePhoto() -> Bitmap? {
        let env = ProcessInfo.processInfo.environment["THUMBTABLE_IMAGES"]
        let folders = [env, "../shared/data/images", "/work/shared/data/images"].compactMap { $0 }
        for folder in folders {
            if let image = try? ImageDecoder.decodeFile(at: folder + "/rocket.jpg") { return image.bitmap }
        }
        return nil
    }

    /// Bilinear scaling plus deterministic grain of up to ±`grain` levels.
    static func scaled(_ source: Bitmap, width: Int, height: Int, grain: Int) -> Bitmap {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var seed: UInt32 = 0x9E37_79B9
        for y in 0..<height {
            let fy = max(0, (Double(y) + 0.5) * Double(source.height) / Double(height) - 0.5)
            let y0 = min(source.height - 1, Int(fy)), y1 = min(source.height - 1, y0 + 1), ty = fy - Double(y0)
            for x in 0..<width {
                let fx = max(0, (Double(x) + 0.5) * Double(source.width) / Double(width) - 0.5)
                let x0 = min(source.width - 1, Int(fx)), x1 = min(source.width - 1, x0 + 1), tx = fx - Double(x0)
                for c in 0..<3 {
                    func p(_ x: Int, _ y: Int) -> Double { Double(source.pixels[(y * source.width + x) * 4 + c]) }
                    var v = (p(x0, y0) * (1 - tx) + p(x1, y0) * tx) * (1 - ty)
                        + (p(x0, y1) * (1 - tx) + p(x1, y1) * tx) * ty
                    if grain > 0 {
                        seed = seed &* 1_664_525 &+ 1_013_904_223
                        v += Double(Int(seed >> 24) % (2 * grain + 1) - grain)
                    }
                    pixels[(y * width + x) * 4 + c] = UInt8(max(0, min(255, v.rounded())))
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    fileprivate static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let pointer = dlsym(handle, name) else { return nil }
        return unsafeBitCast(pointer, to: type)
    }

    /// The placeholder of jsonplaceholder's first photo at 150x150 (`/placeholder/150/92c952/1`), from the demo
    /// server, or nil when the server did not serve it.
    static func placeholderPNG() async -> [UInt8]? {
        try? await withDemoServer { server in
            let url = URL(string: server.baseURL.absoluteString + "/placeholder/150/92c952/1")!
            let reply = try await HTTPClient.shared.get(HTTPGet(url: url))
            return reply.status == 200 ? reply.body : nil
        }
    }

    /// An RGB PNG (colour type 2: a photo has no alpha), deflated with zlib's compress2.
    static func encodePNG(_ bitmap: Bitmap) -> [UInt8]? {
        typealias Compress2 = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?,
                                              UnsafePointer<UInt8>?, UInt, Int32) -> Int32
        typealias Bound = @convention(c) (UInt) -> UInt
        guard let compress2 = symbol("compress2", as: Compress2.self),
              let bound = symbol("compressBound", as: Bound.self) else { return nil }
        var raw: [UInt8] = []
        raw.reserveCapacity((bitmap.width * 3 + 1) * bitmap.height)
        for y in 0..<bitmap.height {
            raw.append(0)  // filter: none
            for x in 0..<bitmap.width {
                let i = (y * bitmap.width + x) * 4
                raw.append(contentsOf: bitmap.pixels[i..<(i + 3)])
            }
        }
        var zsize = bound(UInt(raw.count))
        var z = [UInt8](repeating: 0, count: Int(zsize))
        guard compress2(&z, &zsize, raw, UInt(raw.count), 9) == 0 else { return nil }
        z.removeSubrange(Int(zsize)...)
        func be32(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)]
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func chunk(_ type: String, _ data: [UInt8]) {
            let body = Array(type.utf8) + data
            png += be32(data.count) + body + be32(Int(crc32(body)))
        }
        chunk("IHDR", be32(bitmap.width) + be32(bitmap.height) + [8, 2, 0, 0, 0])
        chunk("IDAT", z)
        chunk("IEND", [])
        return png
    }

    /// Times zlib's `uncompress` on a PNG's concatenated IDAT data, or nil when `png` is no PNG or zlib is missing.
    static func inflateFloor(png: [UInt8], runs: Int) -> (median: Double, p90: Double, cpu: Double)? {
        typealias Uncompress = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?,
                                               UnsafePointer<UInt8>?, UInt) -> Int32
        guard png.count > 33, png[12..<16].elementsEqual("IHDR".utf8),
              let uncompress = symbol("uncompress", as: Uncompress.self) else { return nil }
        func be32(_ at: Int) -> Int {
            Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
        }
        var idat: [UInt8] = []
        var offset = 8
        while offset + 8 <= png.count {
            let length = be32(offset)
            guard offset + 12 + length <= png.count else { break }
            if png[(offset + 4)..<(offset + 8)].elementsEqual("IDAT".utf8) {
                idat += png[(offset + 8)..<(offset + 8 + length)]
            }
            offset += 12 + length
        }
        let rawCount = (be32(16) * 4 * 2 + 1) * be32(20)  // room for up to 16-bit RGBA rows and filter bytes
        var raw = [UInt8](repeating: 0, count: rawCount)
        return measure(runs: runs) {
            var size = UInt(rawCount)
            _ = uncompress(&raw, &size, idat, UInt(idat.count))
        }
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
