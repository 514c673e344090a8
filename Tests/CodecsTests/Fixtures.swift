import Codecs
import Foundation
import Pixels
import Testing

/// The committed fixtures (written by make_fixtures.py) and the colours they were drawn with.
enum Fixtures {
    /// The upright picture of every colour fixture: 3x2 cells of 8x8 pixels (16x16 in the lossy WebP).
    static let cells: [[RGBA]] = [
        [RGBA(r: 255, g: 0, b: 0), RGBA(r: 0, g: 255, b: 0), RGBA(r: 0, g: 0, b: 255)],
        [RGBA(r: 255, g: 255, b: 0), RGBA(r: 255, g: 0, b: 255), RGBA(r: 0, g: 255, b: 255)],
    ]
    static let greys: [[UInt8]] = [[0, 51, 102], [153, 204, 255]]
    /// The alpha of each cell in rgba.png and the WebP fixtures.
    static let alphas: [[UInt8]] = [[255, 128, 0], [64, 255, 200]]

    static func path(_ name: String) -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
            fatalError("fixture \(name) is missing: run Tests/CodecsTests/make_fixtures.py")
        }
        return url.path
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    static func decode(_ name: String, options: DecodeOptions = .init()) throws -> DecodedImage {
        try ImageDecoder.decodeFile(at: path(name), options: options)
    }

    /// The error decoding `name` throws, or nil when it decodes.
    static func error(decoding name: String, options: DecodeOptions = .init()) -> DecodeError? {
        do {
            _ = try ImageDecoder.decodeFile(at: path(name), options: options)
            return nil
        } catch {
            return error
        }
    }
}

/// The real photos in ../shared/data/images, found from this file's path; nil when the folder is not there.
enum SharedImages {
    static let directory: URL? = {
        let url = URL(fileURLWithPath: #filePath)  // …/Tests/CodecsTests/Fixtures.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/data/images")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    static var isAvailable: Bool { directory != nil }

    static func path(_ name: String) -> String { directory!.appendingPathComponent(name).path }
}

/// Expects each cell's centre pixel to be `expected`, every channel within `tolerance`.
func expectCells(_ bitmap: Bitmap, _ expected: [[RGBA]], cell: Int = 8, tolerance: Int,
                 sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(bitmap.width == expected[0].count * cell && bitmap.height == expected.count * cell,
            "size \(bitmap.width)x\(bitmap.height)", sourceLocation: sourceLocation)
    guard bitmap.width == expected[0].count * cell, bitmap.height == expected.count * cell else { return }
    for (cy, row) in expected.enumerated() {
        for (cx, want) in row.enumerated() {
            let got = bitmap[cx * cell + cell / 2, cy * cell + cell / 2]
            #expect(isClose(got, want, tolerance), "cell \(cx),\(cy): got \(got), want \(want)",
                    sourceLocation: sourceLocation)
        }
    }
}

func isClose(_ a: RGBA, _ b: RGBA, _ tolerance: Int) -> Bool {
    abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance
        && abs(Int(a.b) - Int(b.b)) <= tolerance && abs(Int(a.a) - Int(b.a)) <= tolerance
}

extension Array where Element == [UInt8] {
    /// Grey levels as opaque RGBA cells.
    var asGreyCells: [[RGBA]] { map { $0.map { RGBA(r: $0, g: $0, b: $0) } } }
}
