import Foundation
import Items
import LocalFiles
import Testing
@testable import ThumbTableCLI

/// What a picker prints: an input line byte for byte, a folder's file as its path, any other item as its image URL,
/// each ended by a newline or NUL; `--print-key` a JSON line's value.
@Suite struct PickOutputTests {
    @Test func eachItemAsItCameEndedAsAsked() {
        var line = Item(id: "1", title: "caf\u{FFFD}.png")
        line.inputLine = Array("caf".utf8) + [0xE9] + Array(".png".utf8)
        let path = LocalPath(bytes: Array("/p/a b.png".utf8))
        let file = Item(id: "2", title: "a b.png", imageURL: path.fileURL)
        let remote = Item(id: "3", title: "r", imageURL: URL(string: "https://img.example/r.jpg"))
        let none = Item(id: "4", title: "nothing")

        let lines = PickOutput(print0: false).bytes(for: [line, file, remote], localFiles: true)
        #expect(lines.bytes == line.inputLine! + [10] + path.bytes + [10] + Array("https://img.example/r.jpg\n".utf8))
        #expect(lines.missing.isEmpty)
        let nul = PickOutput(print0: true).bytes(for: [file, none], localFiles: true)
        #expect(nul.bytes == path.bytes + [0])
        #expect(nul.missing == ["nothing"])
        // A file: URL from a server is printed as the URL it is, not read as a path.
        #expect(PickOutput(print0: false).value(of: file, localFiles: false) == Array(path.fileURL.absoluteString.utf8))
    }

    @Test func printKeyGivesAJSONLinesValueAsWritten() {
        var item = Item(id: "1", title: "a")
        item.inputLine = Array(#"{"id": 12345678901234567890, "name": "a\u00e9", "tags": ["x"], "ok": true}"#.utf8)
        #expect(PickOutput(print0: false, key: "id").value(of: item, localFiles: false)
                == Array("12345678901234567890".utf8))
        #expect(PickOutput(print0: false, key: "name").value(of: item, localFiles: false) == Array("a\u{E9}".utf8))
        #expect(PickOutput(print0: false, key: "ok").value(of: item, localFiles: false) == Array("true".utf8))
        #expect(PickOutput(print0: false, key: "tags").value(of: item, localFiles: false) == nil)
        #expect(PickOutput(print0: false, key: "missing").value(of: item, localFiles: false) == nil)
    }
}
