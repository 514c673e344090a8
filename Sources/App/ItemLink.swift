import FoundationEssentials
import Items
import LocalFiles

/// The URL `o` opens and `y` copies for an item: its page when a field holds one, else its image; checked before
/// it leaves the program, since it comes from the source (untrusted). For an item of the user's own files (a
/// folder), its file.
public struct ItemLink: Sendable, Equatable {
    /// What the link is, in the status line's words: "page", "image" or "file".
    public var kind: String
    /// The http(s) URL; for a file, its path as text (bytes that are not UTF-8 shown as `\xNN`).
    public var url: String
    /// The file's path, exactly as the file system has it, for a local file; nil for a URL.
    public var path: LocalPath?

    public init(kind: String, url: String, path: LocalPath? = nil) {
        self.kind = kind
        self.url = url
        self.path = path
    }

    /// The item's page (the first field its source marks as a page, `Item.Field.Link.page`, holding an http(s)
    /// URL), else its image (full size, else the small one); or why there is nothing to open. A field's label is
    /// never read: an API record's URL (SWAPI's homeworld) is no page, whatever it is called.
    /// - Parameter localFiles: whether the item comes from the user's own files (`ItemOrigin.local`): then a
    ///   `file:` image is the file to open or copy. A `file:` link from a server is refused, whatever it names.
    public static func of(_ item: Item, localFiles: Bool = false) -> Result<ItemLink, Refusal> {
        for field in item.allFields where field.link == .page {
            if case .success(let url) = checked(field.value) { return .success(ItemLink(kind: "page", url: url)) }
        }
        guard let image = item.imageURL ?? item.thumbnailURL else { return .failure(.noURL) }
        if localFiles, let path = LocalPath(fileURL: image) {
            return .success(ItemLink(kind: "file", url: path.description, path: path))
        }
        return checked(image.absoluteString).map { ItemLink(kind: "image", url: $0) }
    }

    /// The bytes `y` copies: the URL, or the file's path as it is; nil when they hold a control character (a line
    /// break pasted into a shell would run what follows it).
    public var copied: [UInt8]? {
        let bytes = path?.bytes ?? Array(url.utf8)
        let text = String(decoding: bytes, as: UTF8.self)
        return text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } ? nil : bytes
    }

    /// What to know before trusting the URL, for the status line; nil when nothing. A user part (`user@`) can make
    /// a link read as another site (`https://bank.example@evil.example/`); a host not in plain ASCII can imitate
    /// another's letters, so its ASCII form (punycode) is shown, which is what the browser will reach.
    public var caution: String? {
        guard path == nil else { return nil }
        var notes: [String] = []
        if let parsed = URL(string: url) {
            if let user = parsed.user(percentEncoded: true), !user.isEmpty {
                notes.append("it has a user part (\(user)@), the host is what follows the @")
            }
        }
        if let host = Self.host(of: url), !host.allSatisfy(\.isASCII) {
            let ascii = HostSpelling.ascii(String(host))
            notes.append("its host is not plain ASCII" + (ascii.map { ": it is \($0)" } ?? ""))
        }
        return notes.isEmpty ? nil : "careful: " + notes.joined(separator: "; ")
    }

    /// The host as written: between `//` (and a user part's `@`) and the port, path, query or fragment.
    static func host(of url: String) -> Substring? {
        guard let start = url.firstRange(of: "://") else { return nil }
        let rest = url[start.upperBound...]
        let authority = rest[..<(rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex)]
        let hostAndPort = authority[(authority.lastIndex(of: "@").map(authority.index(after:)) ?? authority.startIndex)...]
        if hostAndPort.hasPrefix("[") { return hostAndPort }
        return hostAndPort[..<(hostAndPort.lastIndex(of: ":") ?? hostAndPort.endIndex)]
    }

    /// Why a URL is not opened or copied.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case noURL
        case notHTTP(scheme: String)
        case malformed

        public var description: String {
            switch self {
            case .noURL: "this item has no page or image URL"
            case .notHTTP(let scheme): "its URL is \(scheme.isEmpty ? "not a URL" : scheme + ":"); only http(s) URLs are opened or copied"
            case .malformed: "its URL holds spaces or control characters, or names no host"
            }
        }
    }

    /// The text as an http(s) URL with a host and no whitespace or control characters, or why not.
    public static func checked(_ text: String) -> Result<String, Refusal> {
        guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20
            || (0x7F...0x9F).contains($0.value) || $0.properties.generalCategory == .format }) else {
            return .failure(.malformed)
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            return .failure(.notHTTP(scheme: ""))
        }
        guard scheme == "http" || scheme == "https" else { return .failure(.notHTTP(scheme: scheme)) }
        guard let host = url.host, !host.isEmpty else { return .failure(.malformed) }
        return .success(text)
    }
}
