/// HEIF and AVIF files made to cost far more than their bytes, written box by box or patched from real ones.
public enum HostileHEIF {
    /// The boxes of a HEIC whose item 1 is a grid naming `tiles` tiles (items 2 on): `ftyp` and a `meta` holding
    /// only `pitm` and `iref`. libheif would refuse it for what it lacks, but only after reading its references.
    public static func grid(tiles: Int) -> [UInt8] {
        let references = bigEndian16(1) + bigEndian16(tiles) + (0..<tiles).flatMap { bigEndian16(2 + $0) }
        let iref = fullBox("iref", box("dimg", references))
        let pitm = fullBox("pitm", bigEndian16(1))
        return box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
            + fullBox("meta", pitm + iref)
    }

    /// `file` with every `ispe` (image spatial extent) property declaring `width` x `height`.
    public static func declaring(width: Int, height: Int, in file: [UInt8]) -> [UInt8] {
        var patched = file
        let ispe = Array("ispe".utf8)
        var index = 0
        while index + 16 <= patched.count {
            if Array(patched[index..<index + 4]) == ispe {
                // type, version and flags (4), then width and height, 32 bits each.
                patched.replaceSubrange(index + 8..<index + 16, with: bigEndian32(width) + bigEndian32(height))
            }
            index += 1
        }
        return patched
    }

    private static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        bigEndian32(8 + body.count) + Array(type.utf8) + body
    }

    private static func fullBox(_ type: String, _ body: [UInt8]) -> [UInt8] { box(type, [0, 0, 0, 0] + body) }

    private static func bigEndian16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    private static func bigEndian32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
