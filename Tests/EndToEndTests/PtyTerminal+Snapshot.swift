import Foundation

/// What the test terminal received, as a test reads it and as a failing test shows it.
extension PtyTerminal {
    /// What was received so far.
    struct Snapshot: Sendable {
        var output: [UInt8]
        var uploads: [Upload]
        var deletes: [(id: UInt32, offset: Int)]
        var exitStatus: Int32?
        /// The answers written to the program so far (late ones once their delay passed).
        var repliesWritten: Int
        /// The kitty placements on screen now, in image and placement id order.
        var placements: [Placement]
        /// Every placement, move and delete, in the order the program sent them.
        var placementEvents: [PlacementEvent]
        /// The iTerm2 inline images (`OSC 1337 ; File=`) received.
        var inlineImages: [InlineImage]
        /// When each read of the output arrived: the output's length before it, and the time.
        var arrivals: [(offset: Int, at: ContinuousClock.Instant)]

        init(_ s: State) {
            output = s.output
            uploads = s.uploads
            deletes = s.deletes
            exitStatus = s.exitStatus
            repliesWritten = s.repliesWritten
            placements = s.placements.values.sorted {
                ($0.key.image, $0.key.placement) < ($1.key.image, $1.key.placement)
            }
            placementEvents = s.placementEvents
            inlineImages = s.inlineImages
            arrivals = s.arrivals
        }

        var text: String { String(decoding: output, as: UTF8.self) }

        /// What a failing test shows of what the terminal got: whether the program ended, the graphics commands
        /// read, and the last bytes received, escapes spelled out (`\e`), payloads of pictures shortened.
        var report: String {
            let status = exitStatus.map { "the program ended with status \($0)" } ?? "the program is still running"
            let uploadList = uploads.map { "\($0.id) (\($0.width)x\($0.height) px in \($0.columns)x\($0.rows) cells"
                + "\($0.virtual ? ", virtual" : ""))" }
            return """
                \(status); \(output.count) bytes received, \(repliesWritten) answers written
                kitty uploads: \(uploadList.isEmpty ? "none" : uploadList.joined(separator: ", "))
                kitty deletes: \(deletes.isEmpty ? "none" : deletes.map { "\($0.id)" }.joined(separator: ", "))
                kitty placements on screen: \(placements.isEmpty ? "none" : placements.map { "\($0.key.image)/"
                    + "\($0.key.placement) at \($0.row.map(String.init) ?? "?"),\($0.column.map(String.init) ?? "?")" }
                    .joined(separator: ", ")); iTerm2 images: \(inlineImages.count)
                the last bytes received:
                \(PtyTerminal.readable(output.suffix(4000)))
                """
        }
    }

    /// Bytes as a person can read them: text as it is, a line break after each line feed, escape as `\e`, other
    /// controls as `\xNN`, and the payload of a kitty or sixel picture (an APC or DCS string) cut to its first
    /// 60 bytes and its length.
    static func readable(_ bytes: ArraySlice<UInt8>) -> String {
        var out = ""
        var text: [UInt8] = []
        func flush() {
            out += String(decoding: text, as: UTF8.self)
            text.removeAll()
        }
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            // A picture's string: ESC _ (kitty) or ESC P (sixel), up to ESC \ or the end.
            let introducer = i + 1 < bytes.endIndex ? bytes[i + 1] : 0
            if byte == 0x1B, introducer == UInt8(ascii: "_") || introducer == UInt8(ascii: "P") {
                var end = i + 2
                while end < bytes.endIndex,
                      !(bytes[end] == 0x1B && end + 1 < bytes.endIndex && bytes[end + 1] == UInt8(ascii: "\\")) {
                    end += 1
                }
                let body = bytes[(i + 2)..<end]
                flush()
                out += "\\e" + String(UnicodeScalar(bytes[i + 1]))
                    + readable(body.prefix(60)).replacingOccurrences(of: "\n", with: "")
                    + (body.count > 60 ? "…(\(body.count) bytes)" : "") + (end < bytes.endIndex ? "\\e\\" : "")
                i = min(bytes.endIndex, end + 2)
                continue
            }
            switch byte {
            case 0x1B: flush(); out += "\\e"
            case 0x0A: flush(); out += "\\n\n"
            case 0x0D: flush(); out += "\\r"
            case 0..<0x20, 0x7F: flush(); out += "\\x" + String(byte, radix: 16, uppercase: true)
            default: text.append(byte)
            }
            i += 1
        }
        flush()
        return out
    }
}
