import Codecs
import Foundation
import Pixels

/// A folder of distinct, colourful test pictures (photos from the demo: no greyscale one, whose greys would pass for
/// text) and their decoded sources.
final class XtermPictures {
    static let names = ["astronaut.png", "chelsea.png", "coffee.png", "rocket.jpg"]
    let folder: URL
    private var sources: [String: Bitmap] = [:]

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-pictures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Resources/demo/photos").standardized
        for name in Self.names {
            try FileManager.default.copyItem(at: photos.appendingPathComponent(name),
                                             to: folder.appendingPathComponent(name))
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

    /// The picture in the file at `path`, decoded whole.
    static func decode(_ path: String) throws -> Bitmap {
        try ImageDecoder.decodeFile(at: path).bitmap
    }
}
