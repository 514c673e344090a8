import Codecs
import Foundation
import Graphics
import Pipeline
import Pixels

// `Bench kitty`: the bytes a screen of the demo's photo thumbnails costs as kitty uploads, raw RGB against zlib
// (`o=z`) and PNG (`f=100`), and the time to encode them, at the list's default 12x5-cell thumbnails and a 40x20-cell
// detail pane, for 10x20 and 8x16-pixel cells, zlib at levels 1 and 6. Bytes are the payload's base64 (the command
// keys, a few dozen bytes a chunk, left out).

func runKittyBytesBenchmark() {
    let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized
    let names = ["astronaut.png", "camera.png", "chelsea.png", "coffee.png", "coins.png", "horse.png",
                 "hubble_deep_field.jpg", "rocket.jpg"]
    let decoded: [Bitmap]
    do {
        decoded = try names.map { name in
            let bytes = try [UInt8](Data(contentsOf: photos.appendingPathComponent(name)))
            return try ImageDecoder.decode(EncodedImage(bytes), options: DecodeOptions()).bitmap
        }
    } catch {
        print("kitty: cannot read the demo's photos: \(error)")
        return
    }
    print("kitty: upload bytes and encode time for the demo's 8 photos, per thumbnail size (median of 15 rounds)")
    for (label, columns, rows) in [("list 12x5 cells", 12, 5), ("pane 40x20 cells", 40, 20)] {
        for cell in [(10, 20), (8, 16)] {
            let box = PixelSize(width: columns * cell.0, height: rows * cell.1)
            let bitmaps = decoded.map { bitmap in
                PixelFit(imageSize: PixelSize(width: bitmap.width, height: bitmap.height), in: box).scale(bitmap)
            }
            var rawBytes = 0
            var line = "  \(label) at \(cell.0)x\(cell.1) px:"
            let variants: [(KittyPayload.Encoding, Int32)] = [(.raw, 0), (.zlib, 1), (.zlib, 6), (.png, 1), (.png, 6)]
            for (encoding, level) in variants {
                var bytes = 0
                var samples: [Double] = []
                for _ in 0..<15 {
                    bytes = 0
                    let start = ContinuousClock.now
                    for bitmap in bitmaps {
                        bytes += Base64.encode(KittyPayload(bitmap, encoding: encoding, level: level).bytes).count
                    }
                    samples.append((ContinuousClock.now - start) / .microseconds(1) / 1000)
                }
                if encoding == .raw { rawBytes = bytes }
                let median = samples.sorted()[samples.count / 2]
                let share = Double(bytes) / Double(rawBytes)
                let name = encoding == .raw ? "raw" : "\(encoding) \(level)"
                line += String(format: "  %@ %d B (%.2fx) %.2f ms", name, bytes, share, median)
            }
            print(line)
        }
    }
}
