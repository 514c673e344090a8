import Foundation

/// HEIC, AVIF and JPEG XL files made at test time from the bundled photos with Debian's own encoders (`heif-enc`
/// from libheif-examples, `avifenc` from libavif-bin, `cjxl` from libjxl-tools), so that no binary fixture is
/// committed and the files are what those tools really write.
public enum NewerFormatFiles {
    /// One encoder: its command and the extension of what it writes.
    public struct Encoder: Sendable, CustomStringConvertible {
        public var fileExtension: String
        /// The command line for `source` to `output`.
        var arguments: @Sendable (_ source: String, _ output: String) -> [String]

        public var description: String { fileExtension }

        public init(fileExtension: String, arguments: @escaping @Sendable (String, String) -> [String]) {
            self.fileExtension = fileExtension
            self.arguments = arguments
        }

        /// HEIC, quality 90 (x265).
        public static let heic = Encoder(fileExtension: "heic") { ["heif-enc", "-q", "90", "-o", $1, $0] }
        /// AVIF, quality 90 (libaom), speed 8 to keep tests quick.
        public static let avif = Encoder(fileExtension: "avif") {
            ["avifenc", "--min", "0", "--max", "10", "-s", "8", $0, $1]
        }
        /// JPEG XL, lossy (VarDCT, XYB) at distance 1, the visually lossless default.
        public static let jxl = Encoder(fileExtension: "jxl") { ["cjxl", $0, $1, "-d", "1", "-e", "3"] }
        /// JPEG XL, lossless (modular, the PNG's own colour space).
        public static let losslessJXL = Encoder(fileExtension: "jxl") { ["cjxl", $0, $1, "-d", "0", "-e", "1"] }

        public static let all: [Encoder] = [.heic, .avif, .jxl]
    }

    /// The bundled photos, in the checkout's `Resources/demo/photos`.
    public static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Resources/demo/photos").standardized

    /// Whether all three encoders are installed (`scripts/setup` installs them).
    public static let encodersAvailable: Bool = ["heif-enc", "avifenc", "cjxl"].allSatisfy { tool in
        ProcessInfo.processInfo.environment["PATH", default: "/usr/bin"].split(separator: ":").contains { folder in
            FileManager.default.isExecutableFile(atPath: "\(folder)/\(tool)")
        }
    }

    /// Encodes the bundled photo `photo` (a PNG) with `encoder` into `directory` as `name`, and returns the path.
    @discardableResult
    public static func make(_ encoder: Encoder, from photo: String = "chelsea.png", in directory: URL,
                            name: String? = nil) throws -> String {
        let stem = photo.split(separator: ".")[0]
        let output = directory.appendingPathComponent(name ?? "\(stem).\(encoder.fileExtension)")
        try run(encoder.arguments(photos.appendingPathComponent(photo).path, output.path))
        return output.path
    }

    /// Runs an encoder's command line (found on PATH), its output discarded; throws when it fails.
    public static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw EncoderFailed(command: arguments.joined(separator: " "), status: process.terminationStatus)
        }
    }

    /// A fresh temporary directory for made files; the caller removes it.
    public static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tt-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    public struct EncoderFailed: Error, CustomStringConvertible {
        public var command: String
        public var status: Int32
        public var description: String { "\(command) exited with status \(status)" }
    }
}
