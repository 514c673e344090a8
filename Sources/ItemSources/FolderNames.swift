/// The names a walk keeps from one folder, in shared storage: their bytes and natural-order tokens in two flat
/// buffers, so that sorting thousands of names moves small plain records and allocates nothing a comparison.
struct FolderNames {
    /// Where one name's bytes and tokens are in the buffers, and whether it is a folder.
    struct Name {
        var bytes: Range<Int>
        var tokens: Range<Int>
        var isFolder: Bool
    }

    private(set) var names: [Name] = []
    /// Subfolders read and not listed (a walk that is not recursive): the user is told how many.
    var foldersLeftOut = 0
    private var bytes: [UInt8] = []
    private var tokens: [UInt32] = []

    var count: Int { names.count }

    mutating func append(_ name: UnsafeBufferPointer<UInt8>, isFolder: Bool) {
        let byteStart = bytes.count, tokenStart = tokens.count
        bytes.append(contentsOf: name)
        NaturalSortKey.appendTokens(of: name, to: &tokens)
        names.append(Name(bytes: byteStart..<bytes.count, tokens: tokenStart..<tokens.count, isFolder: isFolder))
    }

    /// Puts the names in natural order (see `NaturalSortKey`).
    mutating func sort() {
        bytes.withUnsafeBufferPointer { bytes in
            tokens.withUnsafeBufferPointer { tokens in
                names.sort { a, b in
                    NaturalSortKey.precedes(
                        tokens: UnsafeBufferPointer(rebasing: tokens[a.tokens]), bytes: UnsafeBufferPointer(rebasing: bytes[a.bytes]),
                        tokens: UnsafeBufferPointer(rebasing: tokens[b.tokens]), bytes: UnsafeBufferPointer(rebasing: bytes[b.bytes]))
                }
            }
        }
    }

    /// The name's bytes, after `prefix` and a slash when the prefix is not empty.
    func path(of name: Name, after prefix: [UInt8]) -> [UInt8] {
        if prefix.isEmpty { return Array(bytes[name.bytes]) }
        var path = prefix
        path.reserveCapacity(prefix.count + 1 + name.bytes.count)
        path.append(UInt8(ascii: "/"))
        path.append(contentsOf: bytes[name.bytes])
        return path
    }
}
