import Codecs
import Foundation
import Pixels
import TestSupport

/// A folder of distinct, colourful test pictures (photos from the demo: no greyscale one, whose greys would pass for
/// text) and their decoded sources.
final class XtermPictures {
    static let photos = ["astronaut.png", "chelsea.png", "coffee.png", "rocket.jpg"]
    let folder: URL
    /// The pictures' file names, in the order the folder lists them.
    private(set) var names: [String] = []
    private var sources: [String: Bitmap] = [:]

    /// The four photos, or with `crops` also two crops of each (its left and its lower 60%, as JPEGs): twelve
    /// pictures named so that the folder lists them photo by photo.
    init(crops: Bool = false) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-pictures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Resources/demo/photos").standardized
        for (index, photo) in Self.photos.enumerated() {
            let stem = crops ? String(format: "p%02d-", index * 3 + 1) : ""
            try FileManager.default.copyItem(at: demo.appendingPathComponent(photo),
                                             to: folder.appendingPathComponent(stem + photo))
            names.append(stem + photo)
            guard crops else { continue }
            let bitmap = try Self.decode(demo.appendingPathComponent(photo).path)
            let (w, h) = (bitmap.width * 3 / 5, bitmap.height * 3 / 5)
            for (offset, crop) in [(2, bitmap.cropped(x: 0, y: 0, width: w, height: bitmap.height)),
                                   (3, bitmap.cropped(x: 0, y: bitmap.height - h, width: bitmap.width, height: h))] {
                let name = String(format: "p%02d-crop.jpg", index * 3 + offset)
                try Data(try JPEGEncoder.encode(crop, quality: 95)).write(to: folder.appendingPathComponent(name))
                names.append(name)
            }
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The picture `name` as decoded from its file.
    func source(_ name: String) throws -> Bitmap {
        if let bitmap = sources[name] { return bitmap }
        let bitmap = try Self.decode(folder.appendingPathComponent(name).path)
        sources[name] = bitmap
        return bitmap
    }

    /// Every picture with its name, in the folder's order, scaled down to at most `maxSide` pixels a side
    /// (thumbnails are smaller, and comparing each picture on a screen with every source at full size would take
    /// seconds a screen).
    func all(maxSide: Int) throws -> [(name: String, bitmap: Bitmap)] {
        try names.map { name in
            let bitmap = try source(name)
            let scale = min(1, Double(maxSide) / Double(max(bitmap.width, bitmap.height)))
            return (name, ImageDifference.resized(bitmap, width: Int(Double(bitmap.width) * scale),
                                                  height: Int(Double(bitmap.height) * scale)))
        }
    }

    /// The picture in the file at `path`, decoded whole.
    static func decode(_ path: String) throws -> Bitmap {
        try ImageDecoder.decodeFile(at: path).bitmap
    }
}
