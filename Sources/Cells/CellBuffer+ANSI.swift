/// Serialising a cell buffer for a stream such as stdout: plain text, or text with ANSI SGR colours.
extension CellBuffer {
    /// Every line's text followed by a newline, with no escape sequences.
    public var plainText: String { String(decoding: plainUTF8, as: UTF8.self) }

    /// `plainText` as UTF-8 bytes, ready to write.
    public var plainUTF8: [UInt8] {
        ANSI.writing(atMost: height + glyphBytes(extra: 0)) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let cell = self[x, y]
                    if !cell.isContinuation { out.append(cell.glyph) }
                }
                out.append(0x0A)
            }
        }
    }

    /// Every line's text with SGR sequences for colours and attributes, followed by a newline.
    ///
    /// Palette colours 0-7 and 8-15 use SGR 30-37/40-47 and 90-97/100-107, 16-255 use 38;5;n, 24-bit colours
    /// 38;2;r;g;b. A sequence is written only where the style changes, and it names only what changed. A space
    /// shows no foreground, so a space never changes the foreground. Each line that changed the style ends with a
    /// reset, so nothing leaks into the next line or past the end.
    public var ansiText: String { String(decoding: ansiUTF8, as: UTF8.self) }

    /// `ansiText` as UTF-8 bytes, ready to write.
    public var ansiUTF8: [UInt8] {
        ANSI.writing(atMost: height * (ANSI.reset.count + 1) + glyphBytes(extra: ANSI.longestTransition)) { out in
            for y in 0..<height {
                var current = CellStyle.plain
                for x in 0..<width {
                    let cell = self[x, y]
                    if cell.isContinuation { continue }
                    var wanted = cell.style
                    // A space draws no foreground, unless underlined or reversed.
                    if ANSI.isSpace(cell.glyph), wanted.attributes.isDisjoint(with: [.underline, .reverse]) {
                        wanted.foreground = current.foreground
                    }
                    if wanted != current {
                        ANSI.appendTransition(from: current, to: wanted, into: &out)
                        current = wanted
                    }
                    out.append(cell.glyph)
                }
                if current != .plain { out.append(ANSI.reset) }
                out.append(0x0A)
            }
        }
    }

    /// The bytes of every cell's glyph, and `extra` more for each cell.
    private func glyphBytes(extra: Int) -> Int {
        var total = 0
        for y in 0..<height {
            for x in 0..<width { total += self[x, y].glyph.utf8.count + extra }
        }
        return total
    }
}

/// SGR sequences as bytes.
enum ANSI {
    static let reset: [UInt8] = Array("\u{1B}[0m".utf8)

    /// The most bytes one transition writes: ESC [ 0 ; 1;2;3;4;7 ; 38;2;255;255;255 ; 48;2;255;255;255 m.
    static let longestTransition = 48

    /// Bytes written through a pointer into room counted beforehand. Appending to an array a byte at a time checked
    /// its uniqueness and capacity at every byte: most of the cost of a colour rendering's ANSI (1.0 M instructions
    /// of a 40x20 `render`). Every write is still checked against the end.
    struct Writer {
        private var next: UnsafeMutablePointer<UInt8>
        private let end: UnsafeMutablePointer<UInt8>

        fileprivate init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
            next = buffer.baseAddress!
            end = next + buffer.count
        }

        fileprivate func written(from start: UnsafeMutablePointer<UInt8>) -> Int { next - start }

        @inline(__always)
        mutating func append(_ byte: UInt8) {
            precondition(next < end, "ANSI.Writer: more bytes than counted")
            next.initialize(to: byte)
            next += 1
        }

        mutating func append(_ bytes: [UInt8]) {
            for byte in bytes { append(byte) }
        }

        /// A glyph's UTF-8, a byte at a time: for a one-character string that is cheaper than copying its UTF-8
        /// view as a collection.
        @inline(__always)
        mutating func append(_ glyph: Character) {
            for byte in glyph.utf8 { append(byte) }
        }
    }

    /// The bytes `write` writes, in an array of room for `capacity` (at least 1) that it must not exceed.
    static func writing(atMost capacity: Int, _ write: (inout Writer) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: max(1, capacity)) { buffer, count in
            var writer = Writer(buffer)
            write(&writer)
            count = writer.written(from: buffer.baseAddress!)
        }
    }

    /// Whether a glyph is a space, judged on its bytes: comparing Characters takes Unicode's slow path for the
    /// block and braille glyphs that fill colour renderings.
    @inline(__always)
    static func isSpace(_ glyph: Character) -> Bool {
        let utf8 = glyph.utf8
        return utf8.first == 0x20 && utf8.count == 1
    }

    /// Each attribute's SGR parameter.
    static let attributeCodes: [(CellAttributes, Int)] = [(.bold, 1), (.dim, 2), (.italic, 3), (.underline, 4),
                                                          (.reverse, 7)]

    /// One SGR sequence that turns style `old` into `new`.
    static func appendTransition(from old: CellStyle, to new: CellStyle, into out: inout Writer) {
        out.append(0x1B); out.append(0x5B)  // ESC [
        var first = true
        func separator() {
            if first { first = false } else { out.append(0x3B) }
        }
        var old = old
        if !old.attributes.isSubset(of: new.attributes) {
            // Attributes cannot all be turned off one by one portably: reset, then set what is wanted.
            separator(); out.append(0x30)
            old = .plain
        }
        let added = new.attributes.subtracting(old.attributes)
        for (attribute, code) in attributeCodes where added.contains(attribute) {
            separator(); appendNumber(code, into: &out)
        }
        if new.foreground != old.foreground {
            separator(); appendColor(new.foreground, foreground: true, into: &out)
        }
        if new.background != old.background {
            separator(); appendColor(new.background, foreground: false, into: &out)
        }
        if first { out.append(0x30) }  // nothing changed after all: a reset to plain
        out.append(0x6D)  // m
    }

    static func appendColor(_ color: CellColor, foreground: Bool, into out: inout Writer) {
        switch color {
        case .default:
            appendNumber(foreground ? 39 : 49, into: &out)
        case .palette(let n) where n < 8:
            appendNumber((foreground ? 30 : 40) + Int(n), into: &out)
        case .palette(let n) where n < 16:
            appendNumber((foreground ? 90 : 100) + Int(n) - 8, into: &out)
        case .palette(let n):
            appendNumber(foreground ? 38 : 48, into: &out)
            out.append(0x3B); out.append(0x35); out.append(0x3B)  // ;5;
            appendNumber(Int(n), into: &out)
        case .rgb(let r, let g, let b):
            appendNumber(foreground ? 38 : 48, into: &out)
            out.append(0x3B); out.append(0x32); out.append(0x3B)  // ;2;
            appendNumber(Int(r), into: &out); out.append(0x3B)
            appendNumber(Int(g), into: &out); out.append(0x3B)
            appendNumber(Int(b), into: &out)
        }
    }

    static func appendNumber(_ n: Int, into out: inout Writer) {
        if n >= 100 { out.append(UInt8(48 + n / 100)) }
        if n >= 10 { out.append(UInt8(48 + n / 10 % 10)) }
        out.append(UInt8(48 + n % 10))
    }
}
