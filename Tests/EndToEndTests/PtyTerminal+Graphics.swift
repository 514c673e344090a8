import Codecs
import Foundation
import Graphics

/// What the test terminal reads of the pictures a program sends: kitty uploads (chunks joined, payload decoded),
/// placements, moves and deletes by id, and iTerm2 inline images.
extension PtyTerminal {
    /// One image the program uploaded, its chunks joined and its payload decoded.
    struct Upload: Sendable, Equatable {
        var id: UInt32
        /// The pixel size (`s`, `v`; a PNG's own) and the format as sent (24 RGB, 32 RGBA, 100 PNG).
        var width: Int
        var height: Int
        var format: Int
        /// Whether the payload was zlib-deflated (`o=z`).
        var compressed: Bool
        /// The cells of its virtual placement (`c`, `r`), and whether it is one (`U=1`).
        var columns: Int
        var rows: Int
        var virtual: Bool
        /// The pixels: as sent for f=24 and f=32, RGBA decoded by the real PNG codec for f=100; nil when the
        /// payload did not decode (or was deflated: `o=z` is not read here).
        var pixels: [UInt8]?
        /// The payload's size before base64, as sent.
        var payloadBytes: Int
        var chunks: Int
        /// Where in the recorded output the upload ended.
        var endOffset: Int
    }

    /// A kitty placement's identity: the image id and the placement id (`p`, 0 when not given).
    struct PlacementKey: Sendable, Hashable {
        var image: UInt32
        var placement: UInt32
    }

    /// A kitty placement on screen: where the cursor was when it was made (row and column from 0; nil when the
    /// program did not put the cursor there with CUP just before), over how many cells.
    struct Placement: Sendable, Equatable {
        var key: PlacementKey
        var row: Int?
        var column: Int?
        var columns: Int
        var rows: Int
        var offset: Int

        static func == (lhs: Placement, rhs: Placement) -> Bool {
            lhs.key == rhs.key && lhs.row == rhs.row && lhs.column == rhs.column && lhs.columns == rhs.columns
                && lhs.rows == rhs.rows
        }
    }

    /// What happened to a placement, in order.
    enum PlacementEvent: Sendable, Equatable {
        /// A new placement (`a=p`, or an upload that displays: `a=T` without `U=1`).
        case placed(Placement)
        /// An `a=p` for a placement already on screen: kitty moves it.
        case moved(Placement)
        /// `a=d` by image id (all its placements, `placement` nil) or by image and placement id; `all` for `d=a`.
        case deleted(image: UInt32, placement: UInt32?, freesData: Bool)
        case deletedAll
    }

    /// An iTerm2 inline image: its arguments (`inline`, `width`, `height`...), its decoded size in bytes, where the
    /// cursor was.
    struct InlineImage: Sendable, Equatable {
        var arguments: [String: String]
        var payloadBytes: Int?
        var row: Int?
        var column: Int?
        var offset: Int
    }

    /// Reads a kitty graphics command: the query is answered as the persona does, uploads collected, placements,
    /// moves and deletes noted.
    func kittyCommand(_ body: [UInt8], cursor: (row: Int, column: Int)?, _ s: inout State) -> [UInt8]? {
        guard body.first == UInt8(ascii: "G"), persona.speaksKitty || persona == .garbage else { return nil }
        let parts = body.dropFirst().split(separator: UInt8(ascii: ";"), maxSplits: 1, omittingEmptySubsequences: false)
        var keys: [String: String] = [:]
        for pair in parts[0].split(separator: UInt8(ascii: ",")) {
            let kv = pair.split(separator: UInt8(ascii: "="), maxSplits: 1)
            guard kv.count == 2 else { continue }
            keys[String(decoding: kv[0], as: UTF8.self)] = String(decoding: kv[1], as: UTF8.self)
        }
        // kitty before 0.28 drops a command with a key it does not know (`U`), unanswered.
        if persona == .kittyDirect, keys["U"] != nil {
            s.partial = nil
            return nil
        }
        let payload = parts.count > 1 ? Array(parts[1]) : []
        let id = UInt32(keys["i"] ?? "") ?? 0
        switch keys["a"] {
        case "q":
            return persona.speaksKitty ? reply(id: id, "OK") : nil
        case "T", "t":
            s.partial = Upload(id: id, width: Int(keys["s"] ?? "") ?? 0, height: Int(keys["v"] ?? "") ?? 0,
                               format: Int(keys["f"] ?? "32") ?? 32, compressed: keys["o"] == "z",
                               columns: Int(keys["c"] ?? "") ?? 0, rows: Int(keys["r"] ?? "") ?? 0,
                               virtual: keys["U"] == "1", pixels: nil, payloadBytes: 0, chunks: 0, endOffset: 0)
            s.partialPayload = []
            if keys["a"] == "T" && keys["U"] != "1" { place(keys, id: id, cursor: cursor, &s) }
        case "p":
            guard s.uploads.contains(where: { $0.id == id }) else {
                return keys["q"] == "2" ? nil : reply(id: id, "ENOENT:No such image")
            }
            place(keys, id: id, cursor: cursor, &s)
            return keys["q"] == nil || keys["q"] == "0" ? reply(id: id, "OK") : nil
        case "d":
            delete(keys, id: id, &s)
            s.partial = nil
            return nil
        case nil:
            guard s.partial != nil else { return nil }
        default:
            return nil
        }
        s.partial!.chunks += 1
        s.partialPayload += payload
        guard keys["m"] != "1", var upload = s.partial else { return nil }
        let data = Base64.decode(s.partialPayload)
        upload.payloadBytes = data?.count ?? 0
        if upload.format == 100, let data, let image = try? ImageDecoder.decode(data) {
            (upload.width, upload.height, upload.pixels) = (image.bitmap.width, image.bitmap.height,
                                                            image.bitmap.pixels)
        } else if !upload.compressed {
            upload.pixels = data
        }
        upload.endOffset = s.output.count
        s.uploads.append(upload)
        s.partial = nil
        if case .kitty(let rejecting) = persona, rejecting.contains(s.uploads.count) {
            return reply(id: upload.id, "EINVAL:rejected by the test terminal")
        }
        return nil
    }

    private func reply(id: UInt32, _ message: String) -> [UInt8] {
        Array("\(Self.esc)_Gi=\(id);\(message)\(Self.esc)\\".utf8)
    }

    /// A placement at the cursor, or the move of one with the same ids.
    private func place(_ keys: [String: String], id: UInt32, cursor: (row: Int, column: Int)?, _ s: inout State) {
        let key = PlacementKey(image: id, placement: UInt32(keys["p"] ?? "") ?? 0)
        let placement = Placement(key: key, row: cursor?.row, column: cursor?.column,
                                  columns: Int(keys["c"] ?? "") ?? 0, rows: Int(keys["r"] ?? "") ?? 0,
                                  offset: s.output.count)
        s.placementEvents.append(s.placements[key] == nil ? .placed(placement) : .moved(placement))
        s.placements[key] = placement
    }

    /// `a=d`: by id (`d=i`, or `d=I`, which frees the data too), with a placement id or all of the image's; all
    /// (`d=a`, `d=A`, or no `d`). Other forms delete by position, which the program must never use (kitty#5081).
    private func delete(_ keys: [String: String], id: UInt32, _ s: inout State) {
        let how = keys["d"] ?? "a"
        switch how {
        case "i", "I":
            let placement = keys["p"].flatMap { UInt32($0) }
            s.deletes.append((id, s.output.count))
            s.placementEvents.append(.deleted(image: id, placement: placement, freesData: how == "I"))
            s.placements = s.placements.filter { key, _ in
                key.image != id || (placement != nil && key.placement != placement)
            }
        case "a", "A":
            s.placementEvents.append(.deletedAll)
            s.placements.removeAll()
        default:
            s.deletes.append((id, s.output.count))
        }
    }

    /// An iTerm2 inline image: `1337;File=key=value;...:base64`.
    func inlineImage(_ body: [UInt8], cursor: (row: Int, column: Int)?, _ s: inout State) {
        let prefix = Array("1337;File=".utf8)
        guard body.starts(with: prefix) else { return }
        let rest = body.dropFirst(prefix.count)
        let colon = rest.firstIndex(of: UInt8(ascii: ":")) ?? rest.endIndex
        var arguments: [String: String] = [:]
        for pair in rest[..<colon].split(separator: UInt8(ascii: ";")) {
            let kv = pair.split(separator: UInt8(ascii: "="), maxSplits: 1)
            guard kv.count == 2 else { continue }
            arguments[String(decoding: kv[0], as: UTF8.self)] = String(decoding: kv[1], as: UTF8.self)
        }
        let payload = colon < rest.endIndex ? Array(rest[(colon + 1)...]) : []
        s.inlineImages.append(InlineImage(arguments: arguments, payloadBytes: Base64.decode(payload)?.count,
                                          row: cursor?.row, column: cursor?.column, offset: s.output.count))
    }
}
