import Codecs
import Foundation
import Pixels

/// JPEGs that carry EXIF thumbnails, made at test time as a camera's are: the pictures coded by libjpeg-turbo
/// (`JPEGEncoder`), the EXIF segment with its thumbnail (IFD1) and orientation tag written by exiftool
/// (libimage-exiftool-perl, which `scripts/setup` installs).
public enum ExifThumbnailFiles {
    /// Whether exiftool is installed.
    public static let exiftoolAvailable: Bool = ProcessInfo.processInfo.environment["PATH", default: "/usr/bin"]
        .split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/exiftool") }

    /// A picture of `size` whose left half is `left` and right half `right`: which way it was turned shows.
    public static func halves(_ size: PixelSize, left: RGBA, right: RGBA) -> Bitmap {
        var bitmap = Bitmap(width: size.width, height: size.height, fill: left)
        for y in 0..<size.height {
            for x in size.width / 2..<size.width {
                let i = (y * size.width + x) * 4
                bitmap.pixels.replaceSubrange(i..<i + 4, with: [right.r, right.g, right.b, right.a])
            }
        }
        return bitmap
    }

    /// The JPEG of `image` with `thumbnail` (JPEG bytes) as its EXIF thumbnail and, when given, EXIF orientation
    /// `orientation` (1 to 8), written by exiftool in `directory`.
    public static func make(_ image: Bitmap, thumbnail: [UInt8], orientation: Int? = nil,
                            in directory: URL) throws -> [UInt8] {
        let name = UUID().uuidString
        let picture = directory.appendingPathComponent("\(name).jpg")
        let thumbnailFile = directory.appendingPathComponent("\(name)-thumbnail.jpg")
        try Data(try JPEGEncoder.encode(image, quality: 90)).write(to: picture)
        try Data(thumbnail).write(to: thumbnailFile)
        var arguments = ["exiftool", "-q", "-overwrite_original", "-ThumbnailImage<=\(thumbnailFile.path)"]
        if let orientation { arguments.append("-Orientation#=\(orientation)") }
        try run(arguments + [picture.path])
        return try [UInt8](Data(contentsOf: picture))
    }

    /// Where `thumbnail`'s bytes lie in `file`, found by searching for them.
    public static func range(of thumbnail: [UInt8], in file: [UInt8]) -> Range<Int>? {
        guard let first = thumbnail.first, thumbnail.count <= file.count else { return nil }
        for start in 0...(file.count - thumbnail.count) where file[start] == first
            && file[start..<start + thumbnail.count].elementsEqual(thumbnail) {
            return start..<start + thumbnail.count
        }
        return nil
    }

    /// The offset of the value of IFD1's thumbnail-offset entry (tag 0x0201, one LONG) in `file`, in either byte
    /// order, and whether it is big-endian.
    public static func thumbnailOffsetEntry(in file: [UInt8]) -> (at: Int, bigEndian: Bool)? {
        let motorola: [UInt8] = [0x02, 0x01, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01]
        let intel: [UInt8] = [0x01, 0x02, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00]
        for (pattern, bigEndian) in [(motorola, true), (intel, false)] {
            if let found = range(of: pattern, in: file) { return (found.upperBound, bigEndian) }
        }
        return nil
    }

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NewerFormatFiles.EncoderFailed(command: arguments.joined(separator: " "),
                                                 status: process.terminationStatus)
        }
    }
}
