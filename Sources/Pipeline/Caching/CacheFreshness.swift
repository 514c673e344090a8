import Basics
import FoundationEssentials
import HTTP

/// How long downloaded bytes may be used from the disk cache without asking their server, and whether they may be
/// kept on disk at all: what a response's `Cache-Control`, `Expires`, `Date`, `Age` and `Last-Modified` say
/// (RFC 9111 §4.2), worked out once, when the response arrives.
public struct CacheFreshness: Sendable, Equatable, Codable {
    /// `no-store`: the bytes are never written to disk.
    public var noStore: Bool
    /// `no-cache`: the bytes are checked with the server before every use from disk.
    public var noCache: Bool
    /// Until when the bytes may be used without asking.
    public var freshUntil: Date
    /// The lifetime the server gave (`max-age`, or `Expires` − `Date`) in seconds; nil when it gave none and the
    /// default applied. Kept so that a 304 which repeats no lifetime renews the one the server gave before.
    public var lifetime: Double?

    public init(noStore: Bool = false, noCache: Bool = false, freshUntil: Date, lifetime: Double? = nil) {
        self.noStore = noStore
        self.noCache = noCache
        self.freshUntil = freshUntil
        self.lifetime = lifetime
    }

    /// The longest default lifetime, and the lifetime of a response with no freshness and no `Last-Modified`: a
    /// day. Image URLs rarely change what they point at, and without a validator a stale entry costs a whole
    /// download; browsers cap their heuristic at a day too.
    public static let defaultLifetime: Double = 24 * 3600

    /// Whether the bytes may be used now without asking the server.
    public func isFresh(at now: Date) -> Bool { !noCache && now < freshUntil }

    /// What a response's headers say, received at `receivedAt`.
    ///
    /// - Parameters:
    ///   - header: a header's value by lower-cased name.
    ///   - previous: the stored response's freshness, when these are a 304's headers: a 304 without
    ///     `Cache-Control` or `Expires` keeps what the stored response said (RFC 9111 §4.3.4).
    public init(header: (String) -> String?, receivedAt: Date, previous: CacheFreshness? = nil) {
        let cacheControl = header("cache-control").map(CacheControl.init)
        let expires = header("expires")
        let date = header("date").flatMap(HTTPDate.parse)
        var lifetime: Double?
        if let maxAge = cacheControl?.maxAge {
            lifetime = maxAge
        } else if let expires {
            // An Expires that is not a date ("0", "-1") means already expired (RFC 9111 §5.3).
            lifetime = HTTPDate.parse(expires).map { $0.timeIntervalSince(date ?? receivedAt) } ?? 0
        }
        var noCache = cacheControl?.noCache ?? false
        if cacheControl == nil, expires == nil, let previous {
            lifetime = previous.lifetime
            noCache = previous.noCache
        }
        // The response's age when it arrived: the Age header, or how old its Date says it is (RFC 9111 §4.2.3).
        let apparentAge = date.map { max(0, receivedAt.timeIntervalSince($0)) } ?? 0
        let age = max(apparentAge, header("age").flatMap(CacheControl.seconds) ?? 0)
        let chosen = lifetime ?? Self.heuristicLifetime(lastModified: header("last-modified"), at: date ?? receivedAt)
        self.init(noStore: cacheControl?.noStore ?? false, noCache: noCache,
                  freshUntil: receivedAt.addingTimeInterval(max(0, chosen - age)), lifetime: lifetime)
    }

    /// The lifetime of a response that gave none: a tenth of the time since its `Last-Modified` (an image
    /// unchanged for ten days is likely unchanged tomorrow), at most `defaultLifetime`; `defaultLifetime` without
    /// a `Last-Modified` (RFC 9111 §4.2.2's heuristic, as browsers apply it).
    public static func heuristicLifetime(lastModified: String?, at date: Date) -> Double {
        guard let modified = lastModified.flatMap(HTTPDate.parse) else { return defaultLifetime }
        return min(defaultLifetime, max(0, date.timeIntervalSince(modified)) / 10)
    }
}

/// The directives of a `Cache-Control` header that a private cache of images acts on. Unknown directives are
/// ignored; a `max-age` that is not a number counts as 0 (stale), the safe reading of a header that is untrusted.
struct CacheControl: Equatable {
    var noStore = false
    var noCache = false
    var maxAge: Double?

    init(_ value: String) {
        // A header longer than any sensible one is garbage: nothing in it is trusted, and nothing is reused.
        guard value.utf8.count <= 4096 else {
            noCache = true
            return
        }
        for directive in value.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1)
            let name = parts[0].trimmingSpaces().lowercased()
            let argument = parts.count > 1
                ? parts[1].trimmingSpaces().trimming(while: { $0 == "\"" })
                : nil
            switch name {
            case "no-store": noStore = true
            // "no-cache=field" names headers not to reuse; revalidating the whole response honours it too.
            case "no-cache": noCache = true
            case "max-age": maxAge = argument.flatMap(Self.seconds) ?? 0
            default: break
            }
        }
    }

    /// delta-seconds: digits only; a number too large for its type stands for about 68 years (RFC 9111 §1.2.2).
    static func seconds(_ text: String) -> Double? {
        let text = text.trimmingSpaces()
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Double(Int32(clamping: Int(text) ?? Int.max))
    }
}
