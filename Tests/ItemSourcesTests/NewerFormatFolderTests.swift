import Foundation
import ItemSources
import Items
import TestSupport
import Testing

/// A folder of HEIC, AVIF and JPEG XL files (made by Debian's encoders from chelsea.png, 451x300) is listed, and
/// each row says its format and stored size, read from the file's first bytes.
@Suite(.enabled(if: NewerFormatFiles.encodersAvailable, "heif-enc, avifenc or cjxl is missing: run scripts/setup"))
struct NewerFormatFolderTests {
    @Test func eachFormatIsListedWithItsFormatAndSize() async throws {
        let folder = try NewerFormatFiles.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try NewerFormatFiles.make(.heic, in: folder, name: "a.heic")
        try NewerFormatFiles.make(.avif, in: folder, name: "b.AVIF")
        try NewerFormatFiles.make(.jxl, in: folder, name: "c.jxl")
        try NewerFormatFiles.make(.losslessJXL, in: folder, name: "d.jxl")
        try NewerFormatFiles.make(.jxl, from: "coins.png", in: folder, name: "e.jxl")  // 384x303
        let source = try FolderSource(directory: folder)
        let items = try await allItems(of: source)
        #expect(items.map(\.title) == ["a.heic", "b.AVIF", "c.jxl", "d.jxl", "e.jxl"])
        #expect(items.map { field($0, "Format") } == ["HEIF", "AVIF", "JPEG XL", "JPEG XL", "JPEG XL"])
        // The stored size: heif-enc codes the odd width in a 452-wide HEVC image that a derived 451-wide item shows
        // (the picture itself decodes at 451: NewerFormatDecodingTests).
        #expect(items.map { field($0, "Pixel dimensions") }
            == ["452 x 300", "451 x 300", "451 x 300", "451 x 300", "384 x 303"])
    }
}
