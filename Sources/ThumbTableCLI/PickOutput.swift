import FoundationEssentials
import Items
import ItemSources
import LocalFiles

/// What a picker prints for the items chosen: each as the bytes it came as, ended by a newline or NUL (`--print0`).
///
/// An item read from stdin is its input line, byte for byte (a file name need not be UTF-8); a folder's is its file's
/// path; any other's is its image URL. With `--print-key`, a JSON line gives the value at that key path instead: a
/// string, number or boolean as written (a list, an object or null has nothing to print).
struct PickOutput {
    var terminator: UInt8
    /// The key path of a JSON item to print instead of the item (`--print-key`).
    var key: String?

    init(print0: Bool, key: String? = nil) {
        terminator = print0 ? 0 : UInt8(ascii: "\n")
        self.key = key
    }

    /// The bytes for `items`, and the items that had nothing to print (no value at `--print-key`), by title.
    func bytes(for items: [Item], localFiles: Bool) -> (bytes: [UInt8], missing: [String]) {
        var bytes: [UInt8] = []
        var missing: [String] = []
        for item in items {
            guard let value = value(of: item, localFiles: localFiles) else {
                missing.append(item.title)
                continue
            }
            bytes += value
            bytes.append(terminator)
        }
        return (bytes, missing)
    }

    /// What is printed for one item, or nil when it has nothing (a key path it lacks, no URL at all).
    func value(of item: Item, localFiles: Bool) -> [UInt8]? {
        if let key {
            guard let line = item.inputLine, let json = try? JSONPageReader.read(line).value,
                  let text = JSONPageReader.scalarText(JSONAPISource.value(at: key, in: json)) else { return nil }
            return Array(text.utf8)
        }
        if let line = item.inputLine { return line }
        guard let url = item.imageURL ?? item.thumbnailURL else { return nil }
        if localFiles, let path = LocalPath(fileURL: url) { return path.bytes }
        return Array(url.absoluteString.utf8)
    }
}
