import Codecs
import Foundation
import Graphics
import Pixels
import Testing

/// The iTerm2 inline image escape: its arguments, and a payload that decodes back to the image file it was given.
@Suite struct ITerm2ImageTests {
    @Test func theEscapeCarriesTheBoxAndTheFileInBase64() throws {
        let bitmap = Bitmap(width: 30, height: 20, fill: RGBA(r: 200, g: 30, b: 60))
        let jpeg = try JPEGEncoder.encode(bitmap, quality: 90)
        let bytes = ITerm2Image.sequence(file: jpeg, columns: 12, rows: 5)
        let text = String(decoding: bytes, as: UTF8.self)
        let head = "\u{1B}]1337;File=inline=1;size=\(jpeg.count);width=12;height=5;preserveAspectRatio=1:"
        #expect(text.hasPrefix(head))
        #expect(bytes.last == 0x07, "ends with BEL")
        let payload = String(text.dropFirst(head.count).dropLast())
        let file = try #require(Data(base64Encoded: payload))
        #expect([UInt8](file) == jpeg)
        let decoded = try ImageDecoder.decode([UInt8](file)).bitmap
        #expect((decoded.width, decoded.height) == (30, 20))
        #expect(abs(Int(decoded[15, 10].r) - 200) < 8)
        #expect(bytes.dropLast().filter { $0 < 0x20 } == [0x1B], "no control but the opening ESC and the closing BEL")
    }
}
