import Cells
import Codecs
import Foundation
import Testing
import TextArt

/// Real pictures in every mode, compared with recorded output. `RECORD_GOLDEN=1` re-records (and fails, saying so).
@Suite struct GoldenTests {
    static let images = ["chelsea", "horse"]
    static let depths: [ColorDepth] = [.none, .palette256, .truecolor]
    static let recording = ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1"

    /// The source folder, for recording (the bundle holds a copy made at build time).
    static let sourceFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden")

    static func rendering(image: String, mode: RenderMode, color: ColorDepth) throws -> String {
        let input = sourceFolder.appendingPathComponent("inputs/\(image).png").path
        let options = TextArtOptions(mode: mode, color: color)
        let target = TextArtRenderer.sourcePixelSize(columns: 24, rows: 12, mode: mode)
        let decoded = try ImageDecoder.decodeFile(at: input, options: DecodeOptions(
            targetSize: PixelSize(width: target.width, height: target.height)))
        let grid = TextArtRenderer.fit(imageWidth: decoded.originalWidth, imageHeight: decoded.originalHeight,
                                       maxColumns: 24, maxRows: 12, cellAspect: options.cellAspect)
        let cells = TextArtRenderer.render(decoded.bitmap, columns: grid.columns, rows: grid.rows, options: options)
        return color == .none ? cells.plainText : cells.ansiText
    }

    @Test(arguments: images, RenderMode.allCases)
    func matchesGolden(image: String, mode: RenderMode) throws {
        for color in Self.depths {
            let name = "\(image).\(mode.rawValue).\(color.rawValue).txt"
            let actual = try Self.rendering(image: image, mode: mode, color: color)
            if Self.recording {
                try actual.write(to: Self.sourceFolder.appendingPathComponent(name), atomically: true, encoding: .utf8)
                Issue.record("recorded \(name); run again without RECORD_GOLDEN=1 to compare")
                continue
            }
            let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Golden")
                ?? Self.sourceFolder.appendingPathComponent(name)
            let expected = try String(contentsOf: url, encoding: .utf8)
            #expect(actual == expected, "\(name) differs from the golden file; RECORD_GOLDEN=1 re-records it")
        }
    }

    @Test func plainRenderingsHaveNoEscapes() throws {
        for image in Self.images {
            for mode in RenderMode.allCases {
                let text = try Self.rendering(image: image, mode: mode, color: .none)
                #expect(!text.contains("\u{1B}"), "\(image) \(mode)")
            }
        }
    }
}
