import FoundationEssentials
import Items
import LocalFiles

extension ItemStreamSource {
    /// The row of one thing read from the input.
    func item(_ entry: Entry) -> Item {
        switch entry {
        case .made(let item):
            return item
        case .problem(let reason):
            return Self.problemRow(id: "\(name): \(reason)", title: "(\(name))", line: nil, reason: reason)
        case .line(.tooLong(let number, let length)):
            return Self.problemRow(id: "\(name):\(number)", title: "(line \(number) left out)", line: number,
                                   reason: "line \(number) is \(length) bytes long, more than the "
                                       + (lineCeiling >= 1 << 20 ? "\(lineCeiling >> 20) MB" : "\(lineCeiling) bytes")
                                       + " a line may have")
        case .line(.text(let number, let bytes)):
            var item: Item
            switch format {
            case .lines: item = lineRow(number: number, bytes: bytes)
            case .jsonLines(let keyPaths): item = jsonRow(number: number, bytes: bytes, keyPaths: keyPaths)
            case .jsonDocument: item = Self.problemRow(id: "\(name):\(number)", title: Self.shown(bytes),
                                                       line: number, reason: "a line, in a JSON document")
            }
            item.inputLine = bytes
            return item
        }
    }

    /// A line's row: an http(s) URL's picture, or a file's; or a row saying the line is neither.
    func lineRow(number: Int, bytes: [UInt8]) -> Item {
        let id = "\(name):\(number)", text = Self.shown(bytes)
        if Self.startsLikeWebLink(bytes) {
            switch RemoteLink.resolve(String(decoding: bytes, as: UTF8.self), against: nil) {
            case .success(let url):
                let host = url.host ?? url.absoluteString
                return Item(id: id, title: text, subtitle: host,
                            fields: [Item.Field("Line", "\(number)"),
                                     Item.Field("URL", url.absoluteString, link: .image)],
                            imageURL: url, attribution: "Image from \(host)")
            case .failure(let refusal):
                return Self.problemRow(id: id, title: text, line: number, reason: "the link \(refusal)")
            }
        }
        // A path is bytes up to a NUL: one with a NUL in it names no file.
        guard !bytes.contains(0) else {
            return Self.problemRow(id: id, title: text, line: number, reason: "not a file path: it holds a NUL byte")
        }
        let path = bytes.first == UInt8(ascii: "/") ? LocalPath(bytes: bytes) : workingFolder.appending(bytes)
        if case .missing = LocalFile.kind(of: path) {
            return Self.problemRow(id: id, title: text, line: number,
                                   reason: "neither an existing file nor an http(s) URL (\(path) does not exist)")
        }
        let folder = LocalPath(bytes: Array(path.bytes[..<(path.bytes.lastIndex(of: UInt8(ascii: "/")) ?? 0)]))
        return FolderSource.fileItem(at: path, title: text, id: id, folder: folder)
    }

    /// A JSON line's row, read by the key paths; a line that is not JSON (the reader left those out) is a row with
    /// the parse error.
    func jsonRow(number: Int, bytes: [UInt8], keyPaths: JSONAPISource.KeyPaths) -> Item {
        let id = "\(name):\(number)"
        do {
            let value = try JSONPageReader.read(bytes).value
            return JSONAPISource.item(value, keyPaths: keyPaths, id: id, linksAgainst: nil)
        } catch {
            return Self.problemRow(id: id, title: Self.shown(bytes), line: number, reason: "not JSON: \(error)")
        }
    }

    /// A row without a picture whose subtitle and detail pane say what was wrong.
    static func problemRow(id: String, title: String, line: Int?, reason: String) -> Item {
        let subtitle = line.map { "line \($0): \(reason)" } ?? reason
        let fields = (line.map { [Item.Field("Line", "\($0)")] } ?? []) + [Item.Field("Problem", reason)]
        return Item(id: id, title: title, subtitle: subtitle, fields: fields)
    }

    /// Whether the line starts as an http(s) URL does, in any case: what it is then meant to be.
    static func startsLikeWebLink(_ bytes: [UInt8]) -> Bool {
        let lowered = bytes.prefix(8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return lowered.starts(with: "http://".utf8) || lowered.starts(with: "https://".utf8)
    }

    /// A line as a title: its text, each invalid UTF-8 sequence replaced by U+FFFD, cut to `titleLimit` characters.
    static func shown(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(titleLimit * 4), as: UTF8.self)
        return text.count > titleLimit ? text.prefix(titleLimit) + "…" : text
    }

    /// The most characters of a line a title shows: the screen shows less, and the line itself is kept whole.
    static let titleLimit = 400
}
