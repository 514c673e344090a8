import Cells
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

    @Test func uploadsAreChunkedWithKeysFirst() throws {
        // 60x40 opaque pixels: 7,200 RGB bytes, 9,600 base64, three chunks.
        let bitmap = Bitmap(width: 60, height: 40, fill: RGBA(r: 1, g: 2, b: 3))
        let commands = KittyCommands.upload(bitmap, id: 300, columns: 6, rows: 2)
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
}
