import Basics
import FoundationEssentials
import Items

/// The pages a list has loaded, remembered so that a source that leads back to one, or keeps sending nothing, is
/// caught: where each page was (its cursor, a URL in the one spelling all its spellings share), what rows it had (a
/// fingerprint), and how many empty pages came in a row.
struct PageTrail: Sendable {
    /// The loaded pages' cursors, URLs normalised by `sameness(of:)`.
    private var cursors: Set<String> = []
    /// Fingerprints of the loaded pages' rows (pages with at least one row), and the page each was first seen on.
    private var fingerprints: [Int: Int] = [:]
    /// Pages without a row since the last page with one.
    private(set) var emptyRun = 0

    /// How many empty pages in a row stop paging: an API may skip a page or two of removed rows, not more.
    static let emptyRunLimit = 5

    /// Records the page that arrived from `cursor` as the `number`th loaded, and says why paging stops after it,
    /// if it does: its rows repeat an earlier page's (then they are not to be added), its next link leads back to a
    /// page loaded already, or it ends a run of empty pages.
    mutating func record(_ page: ItemPage, from cursor: PageCursor, number: Int) -> PagingStop? {
        cursors.insert(Self.sameness(of: cursor))
        if page.items.isEmpty {
            emptyRun += 1
        } else {
            emptyRun = 0
            let fingerprint = Self.fingerprint(page.items)
            if let first = fingerprints[fingerprint] { return .repeatedRows(page: number, sameAs: first) }
            fingerprints[fingerprint] = number
        }
        guard let next = page.next else { return nil }
        if cursors.contains(Self.sameness(of: next)) { return .nextAlreadyLoaded(Self.name(of: next)) }
        if emptyRun >= Self.emptyRunLimit { return .emptyPages(count: emptyRun, next: next) }
        return nil
    }

    /// Starts counting empty pages again: the user asked for more (`r` after a run of them).
    mutating func resume() {
        emptyRun = 0
    }

    /// What the rows of a page show, ignoring their ids (a source may make ids from the page's URL): two pages with
    /// the same rows in the same order have the same fingerprint.
    static func fingerprint(_ items: [Item]) -> Int {
        var hasher = Hasher()
        hasher.combine(items.count)
        for item in items {
            hasher.combine(item.title)
            hasher.combine(item.subtitle)
            hasher.combine(item.allFields)
            hasher.combine(item.imageURL)
            hasher.combine(item.thumbnailURL)
            hasher.combine(item.attribution)
        }
        return hasher.finalize()
    }

    /// A cursor in the one spelling every spelling of the same page shares. A URL is normalised as RFC 3986
    /// (section 6) allows without asking the server: scheme and host in lower case, the scheme's default port
    /// dropped, an empty path as `/`, dot segments removed, percent escapes of unreserved characters decoded and
    /// the others' hex digits in upper case, empty query parameters and the fragment (never sent) dropped.
    static func sameness(of cursor: PageCursor) -> String {
        switch cursor {
        case .number(let number): return "page \(number)"
        case .offset(let offset): return "offset \(offset)"
        case .url(let url): return "url " + sameness(of: url)
        }
    }

    /// A cursor as a note names it: a URL as the server wrote it (resolved), else the page or offset.
    static func name(of cursor: PageCursor) -> String {
        switch cursor {
        case .number(let number): "page \(number)"
        case .offset(let offset): "the page at row \(offset + 1)"
        case .url(let url): url.absoluteString
        }
    }

    static func sameness(of url: URL) -> String {
        guard var components = URLComponents(url: url.absoluteURL, resolvingAgainstBaseURL: true) else {
            return url.absoluteString
        }
        let scheme = components.scheme?.lowercased()
        components.scheme = scheme
        if let host = components.percentEncodedHost { components.percentEncodedHost = host.lowercased() }
        if let port = components.port, (scheme == "http" && port == 80) || (scheme == "https" && port == 443) {
            components.port = nil
        }
        var path = normalizedEscapes(components.percentEncodedPath)
        path = removingDotSegments(path.isEmpty ? "/" : path)
        components.percentEncodedPath = path
        if let query = components.percentEncodedQuery {
            // Empty parameters (`?`, `a=1&`, `&&`) carry nothing.
            let parameters = query.split(separator: "&").map { normalizedEscapes(String($0)) }
            components.percentEncodedQuery = parameters.isEmpty ? nil : parameters.joined(separator: "&")
        }
        components.fragment = nil
        return components.string ?? url.absoluteString
    }

    /// Percent escapes with upper-case hex digits, and those of unreserved characters (letters, digits, `-._~`)
    /// decoded: `%7e` and `~` are the same character.
    static func normalizedEscapes(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let high = bytes[i + 1].hexDigitValue,
               let low = bytes[i + 2].hexDigitValue {
                let value = high << 4 | low
                if isUnreserved(value) {
                    out.append(value)
                } else {
                    out += [UInt8(ascii: "%"), upperHex(high), upperHex(low)]
                }
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// RFC 3986's remove_dot_segments on an absolute path: `/a/./b/../c` is `/a/c`.
    static func removingDotSegments(_ path: String) -> String {
        var kept: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            switch segment {
            case ".":
                if last { kept.append("") }
            case "..":
                if !kept.isEmpty { kept.removeLast() }
                if last { kept.append("") }
            default:
                kept.append(segment)
            }
        }
        return "/" + kept.joined(separator: "/")
    }

    private static func upperHex(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
