import Foundation
import Testing
@testable import TextArt

/// The tables TextArt reads as literals (ColorSpace+Tables.swift, BlockSymbols+Tables.swift, GlyphSet+Tables.swift)
/// against the code that computes them: the files must be what that code writes, and the values the compiler made
/// of them the values it computes, bit for bit. `RECORD_TABLES=1` rewrites the files (and fails, saying so).
@Suite struct GeneratedTablesTests {
    static let recording = ProcessInfo.processInfo.environment["RECORD_TABLES"] == "1"
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/TextArt")

    @Test func colorSpaceTablesAreTheFormulas() throws {
        let computed = ColorSpace.computedTables()
        try Self.check("ColorSpace+Tables.swift", TableSource.colorSpace(computed))
        #expect(ColorSpace.linearOfByte.map(\.bitPattern) == computed.linearOfByte.map(\.bitPattern))
        #expect(ColorSpace.byteOfLinear == computed.byteOfLinear)
        #expect(ColorSpace.gammaOfLinear.map(\.bitPattern) == computed.gammaOfLinear.map(\.bitPattern))
        #expect(ColorSpace.lightnessOfLuminance.map(\.bitPattern)
                == computed.lightnessOfLuminance.map(\.bitPattern))
    }

    @Test func blockSymbolsAreBuiltFromTheirGlyphs() throws {
        let modes: [RenderMode] = [.blocks, .quadrants, .sextants, .braille]
        let computed = modes.map { BlockSymbols.computed($0)! }
        try Self.check("BlockSymbols+Tables.swift", TableSource.blockSymbols(zip(modes, computed).map { $0 }))
        for (mode, symbols) in zip(modes, computed) {
            #expect(BlockSymbols.forMode(mode) == symbols, "\(mode)")
        }
    }

    @Test func glyphSetsAreMeasuredFromTheCoverage() throws {
        let ramp = GlyphSet.computedRamp(), all = GlyphSet.computedAll()
        try Self.check("GlyphSet+Tables.swift", TableSource.glyphSets(ramp: ramp, all: all))
        #expect(GlyphSet.ramp == ramp)
        #expect(GlyphSet.all == all)
    }

    /// Compares the file `name` with `source`, or writes it when recording.
    static func check(_ name: String, _ source: String) throws {
        let url = folder.appendingPathComponent(name)
        if recording {
            try source.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("wrote \(name); run again without RECORD_TABLES=1 to compare")
            return
        }
        let written = try String(contentsOf: url, encoding: .utf8)
        #expect(written == source, "\(name) is not what the code computes; RECORD_TABLES=1 rewrites it")
    }
}

/// The Swift source of the generated tables.
enum TableSource {
    static let command = "RECORD_TABLES=1 swift test --filter GeneratedTablesTests"

    static func colorSpace(_ tables: (linearOfByte: [Float], byteOfLinear: [UInt8], gammaOfLinear: [Float],
                                      lightnessOfLuminance: [Float])) -> String {
        header("ColorSpace.computedTables()") + """
            extension ColorSpace {
                /// The linear value of each sRGB byte.
                static let linearOfByte: [Float] = \(list(tables.linearOfByte, indent: 8))

                /// The sRGB byte of each linear step.
                static let byteOfLinear: [UInt8] = \(list(tables.byteOfLinear, indent: 8))

                /// The sRGB-encoded value (0...1) of each linear step: a roughly perceptual scale that is cheap to get.
                static let gammaOfLinear: [Float] = \(list(tables.gammaOfLinear, indent: 8))

                /// CIE L* (0...1) of each step of relative luminance.
                static let lightnessOfLuminance: [Float] = \(list(tables.lightnessOfLuminance, indent: 8))
            }

            """
    }

    static func blockSymbols(_ sets: [(RenderMode, BlockSymbols)]) -> String {
        let names: [RenderMode: String] = [.blocks: "halfBlocks", .quadrants: "quadrants", .sextants: "sextants",
                                           .braille: "braille"]
        let glyph = { (c: Character) in String(reflecting: c) }
        let complement = { (c: Character?) in c.map(glyph) ?? "nil" }
        let body = sets.map { mode, s in
            """
                /// `BlockSymbols.computed(.\(mode.rawValue))`.
                static let \(names[mode]!) = BlockSymbols(
                    columns: \(s.columns), rows: \(s.rows), sampleRows: \(s.sampleRows),
                    bandHeights: \(list(s.bandHeights, indent: 12)),
                    shareStart: \(list(s.shareStart, indent: 12)),
                    shareBand: \(list(s.shareBand, indent: 12)),
                    shareWeight: \(list(s.shareWeight, indent: 12)),
                    bandSizes: \(list(s.bandSizes, indent: 12)),
                    drawable: \(list(s.drawable, indent: 12)),
                    drawableGlyphs: \(list(s.drawableGlyphs, indent: 12, glyph)),
                    splits: \(list(s.splits, indent: 12)),
                    splitGlyphs: \(list(s.splitGlyphs, indent: 12, glyph)),
                    complementGlyphs: \(list(s.complementGlyphs, indent: 12, complement)),
                    splitScales: \(list(s.splitScales, indent: 12) { "SIMD2(\($0.x), \($0.y))" }),
                    splitSums: \(subsetSums(s.splitSums)),
                    drawableSums: \(subsetSums(s.drawableSums)))
            """
        }
        return header("BlockSymbols.computed(_:)") + "extension BlockSymbols {\n" + body.joined(separator: "\n\n")
            + "\n}\n"
    }

    static func subsetSums(_ sums: SubsetSums) -> String {
        """
        SubsetSums(
                    valueCount: \(sums.valueCount),
                    left: \(list(sums.left, indent: 16)),
                    right: \(list(sums.right, indent: 16)),
                    slot: \(list(sums.slot, indent: 16)))
        """
    }

    static func glyphSets(ramp: GlyphSet, all: GlyphSet) -> String {
        func set(_ name: String, _ doc: String, _ computed: String, _ s: GlyphSet) -> String {
            """
                /// \(doc): `GlyphSet.\(computed)()`.
                static let \(name) = GlyphSet(
                    glyphs: \(list(s.glyphs, indent: 12, String.init(reflecting:))),
                    coverage: \(list(s.coverage, indent: 12)),
                    pattern: \(list(s.pattern, indent: 12)),
                    lightness: \(list(s.lightness, indent: 12)))
            """
        }
        return header("GlyphSet.computedRamp() and computedAll()") + "extension GlyphSet {\n"
            + set("ramp", "The tone ramp, from empty to dense",
                  "computedRamp", ramp) + "\n\n"
            + set("all", "Every printable ASCII glyph, for shape matching", "computedAll", all) + "\n}\n"
    }

    static func header(_ source: String) -> String {
        """
        // Generated from \(source) by GeneratedTablesTests (Tests/TextArtTests): do not edit.
        // Regenerate: \(command)
        // Literals, so the compiler lays the values out in the binary and nothing is computed at start-up.


        """
    }

    /// An array literal of `values`, wrapped at 120 columns with its elements `indent` spaces in. A Float's
    /// description is the shortest text that reads back as the same Float.
    static func list<Element>(_ values: [Element], indent: Int,
                              _ text: (Element) -> String = { "\($0)" }) -> String {
        let items = values.map(text)
        let inline = "[" + items.joined(separator: ", ") + "]"
        if inline.count <= 60 { return inline }
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = [], line = pad
        for item in items {
            if line.count > indent, line.count + item.count + 2 > 120 {
                lines.append(line)
                line = pad
            }
            line += (line.count > indent ? " " : "") + item + ","
        }
        lines.append(line)
        return "[\n" + lines.joined(separator: "\n") + "\n" + pad.dropLast(4) + "]"
    }
}
