import Cells
import Codecs
import DemoServer
#if canImport(Glibc)
import Glibc
#endif
import Graphics
import Pixels
import Testing

@Suite struct KittyEncodingTests {
    @Test func base64RoundTrips() {
        #expect(Base64.encode(Array("Man".utf8)) == Array("TWFu".utf8))
        #expect(Base64.encode(Array("Ma".utf8)) == Array("TWE=".utf8))
        #expect(Base64.encode(Array("M".utf8)) == Array("TQ==".utf8))
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        #expect(Base64.decode(Array("TQ=a".utf8)) == nil)
    }

    @Test func placeholderCellsCarryRowColumnAndID() {
        let id: UInt32 = 0x04_00_01_2C
        let cell = KittyPlaceholder.cell(imageID: id, row: 1, column: 2, form: .direct)
        #expect(Array(cell.glyph.unicodeScalars.map(\.value)) == [0x10EEEE, 0x030D, 0x030E, 0x0312])
        #expect(cell.style.foreground == .rgb(0, 1, 0x2C))
        // One column wide, one grapheme: ncurses and the table agree on the cell.
        #expect(String(cell.glyph).displayWidth == 1)
        let palette = KittyPlaceholder.cell(imageID: 0x04_00_00_2A, row: 0, column: 0, form: .palette256)
        #expect(palette.style.foreground == .palette(42))
        #expect(Array(palette.glyph.unicodeScalars.map(\.value)) == [0x10EEEE, 0x0305, 0x0305, 0x0312])
        #expect(!KittyPlaceholder.canCarry(0x0000_0100, form: .palette256))
        #expect(KittyPlaceholder.diacritic(255) == Unicode.Scalar(0xA8E5))
        #expect(KittyPlaceholder.maxIndex == 296)
    }

    @Test func cursesAndTheTableAgreeThePlaceholderIsOneColumn() {
        // ncursesw measures with the C library's wcwidth: U+10EEEE one column, every diacritic none; the table's own
        // width table must say the same of every placeholder glyph, or the layout and curses disagree.
        #expect(setlocale(LC_CTYPE, "C.UTF-8") != nil)
        // wcwidth needs _XOPEN_SOURCE, which Swift's Glibc module lacks: looked up in the C library.
        typealias Width = @convention(c) (wchar_t) -> Int32
        let wcwidth = unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcwidth"), to: Width.self)
        #expect(wcwidth(wchar_t(0x10EEEE)) == 1)
        for index in 0...KittyPlaceholder.maxIndex {
            #expect(wcwidth(wchar_t(KittyPlaceholder.diacritic(index).value)) == 0, "diacritic \(index)")
        }
        for index in [0, 1, 100, 255, KittyPlaceholder.maxIndex] {
            let high = UInt32(max(index, 1) % 256) << 24
            let cell = KittyPlaceholder.cell(imageID: high | 0x100, row: index, column: index, form: .direct)
            #expect(String(cell.glyph).displayWidth == 1)
            #expect(cell.glyph.unicodeScalars.count == 4, "fits curses' CCHARW_MAX - 1 scalars")
        }
    }

    @Test func uploadsAreChunkedWithKeysFirst() throws {
        // 60x40 opaque pixels: 7,200 RGB bytes, 9,600 base64, three chunks.
        let bitmap = Bitmap(width: 60, height: 40, fill: RGBA(r: 1, g: 2, b: 3))
        let commands = KittyCommands.upload(bitmap, id: 300, columns: 6, rows: 2, encoding: .raw)
        #expect(commands.count == 3)
        let texts = commands.map { String(decoding: $0, as: UTF8.self) }
        #expect(texts[0].hasPrefix("\u{1B}_Ga=T,U=1,f=24,s=60,v=40,i=300,c=6,r=2,q=1,m=1;"))
        #expect(texts[1].hasPrefix("\u{1B}_Gm=1,q=1;") && texts[2].hasPrefix("\u{1B}_Gm=0,q=1;"))
        var payload: [UInt8] = []
        for command in commands {
            let body = command.dropFirst(3).dropLast(2)
            let chunk = Array(body.split(separator: UInt8(ascii: ";"), maxSplits: 1)[1])
            #expect(chunk.count <= KittyCommands.chunkSize && chunk.count % 4 == 0)
            payload += chunk
        }
        let raw = try #require(Base64.decode(payload))
        #expect(raw.count == 60 * 40 * 3 && raw.prefix(3) == [1, 2, 3])
    }

    @Test func translucentPicturesGoAsRGBA() {
        let bitmap = Bitmap(width: 2, height: 2, fill: RGBA(r: 1, g: 2, b: 3, a: 128))
        let text = String(decoding: KittyCommands.upload(bitmap, id: 7, columns: 1, rows: 1)[0], as: UTF8.self)
        #expect(text.contains("f=32,s=2,v=2") && text.contains(",m=0;"))
        #expect(KittyCommands.delete(id: 7) == Array("\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\\".utf8))
    }

    /// A photo-like picture (smooth gradients with noise) goes as a PNG the real codec reads back pixel for pixel,
    /// in fewer bytes than raw; the keys say PNG and nothing of the size (the PNG carries it).
    @Test func photosGoAsPNGThatDecodesToTheSamePixels() throws {
        var bitmap = Bitmap(width: 120, height: 90, fill: RGBA(r: 0, g: 0, b: 0))
        var generator = SplitMix64(seed: 7)
        for y in 0..<90 {
            for x in 0..<120 {
                let noise = UInt8(generator.next() % 9)
                bitmap[x, y] = RGBA(r: UInt8(x * 2) &+ noise, g: UInt8(y * 2) &+ noise, b: UInt8((x + y) % 256))
            }
        }
        let payload = KittyPayload(bitmap, encoding: .png)
        #expect(payload.encoding == .png && payload.keys == "f=100")
        #expect(payload.bytes.count < 120 * 90 * 3 * 6 / 10, "\(payload.bytes.count) bytes")
        let decoded = try ImageDecoder.decode(payload.bytes)
        #expect(decoded.bitmap == bitmap)
        let command = String(decoding: KittyCommands.upload(bitmap, id: 9, columns: 12, rows: 5)[0], as: UTF8.self)
        #expect(command.hasPrefix("\u{1B}_Ga=T,U=1,f=100,i=9,c=12,r=5,q=1,m="))
    }

    /// Translucent pictures keep their alpha through the PNG.
    @Test func translucentPhotosKeepTheirAlphaInThePNG() throws {
        var bitmap = Bitmap(width: 64, height: 64, fill: RGBA(r: 0, g: 0, b: 0))
        for y in 0..<64 {
            for x in 0..<64 { bitmap[x, y] = RGBA(r: UInt8(x * 4), g: UInt8(y * 4), b: 9, a: UInt8(x * 2 + y)) }
        }
        let payload = KittyPayload(bitmap)
        #expect(payload.encoding == .png)
        #expect(try ImageDecoder.decode(payload.bytes).bitmap == bitmap)
    }

    /// Compression only where it pays: a tiny picture, and noise that deflate cannot shrink, go raw.
    @Test func tinyPicturesAndNoiseGoRaw() throws {
        let tiny = Bitmap(width: 20, height: 20, fill: RGBA(r: 1, g: 2, b: 3))
        #expect(KittyPayload(tiny).encoding == .raw, "1,200 bytes: below the smallest worth compressing")
        var noise = Bitmap(width: 100, height: 100, fill: RGBA(r: 0, g: 0, b: 0))
        var generator = SplitMix64(seed: 1)
        for y in 0..<100 {
            for x in 0..<100 {
                let value = generator.next()
                noise[x, y] = RGBA(r: UInt8(truncatingIfNeeded: value), g: UInt8(truncatingIfNeeded: value >> 8),
                                   b: UInt8(truncatingIfNeeded: value >> 16))
            }
        }
        for encoding in [KittyPayload.Encoding.png, .zlib] {
            let payload = KittyPayload(noise, encoding: encoding)
            #expect(payload.encoding == .raw && payload.keys == "f=24,s=100,v=100" && payload.bytes.count == 30_000)
        }
    }

    /// `o=z`: the raw pixels deflated, the size keys kept.
    @Test func zlibKeepsTheSizeKeys() {
        let flat = Bitmap(width: 100, height: 50, fill: RGBA(r: 9, g: 8, b: 7))
        let payload = KittyPayload(flat, encoding: .zlib)
        #expect(payload.encoding == .zlib && payload.keys == "f=24,s=100,v=50,o=z")
        #expect(payload.bytes.count < 200 && payload.bytes.first == 0x78, "a zlib stream")
    }
}
