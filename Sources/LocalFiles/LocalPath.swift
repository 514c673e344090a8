import Basics
import Cells
import FoundationEssentials

/// A path on this machine as the file system stores it: bytes, which need not be UTF-8.
///
/// Foundation's `URL` and `String` cannot carry a file name that is not UTF-8 (they replace the bad bytes, and the
/// file can then no longer be opened), so a local path travels as a `file:` URL whose path is percent-encoded byte
/// by byte, and comes back to its exact bytes here.
public struct LocalPath: Sendable, Hashable, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public init(_ path: String) { bytes = Array(path.utf8) }

    /// The path of a `file:` URL (`file:///a/b`, `file://localhost/a/b`), its percent escapes decoded to bytes; nil
    /// for any other URL, a URL naming another host, or a path holding a NUL byte.
    public init?(fileURL url: URL) {
        guard url.scheme?.lowercased() == "file" else { return nil }
        var text = Substring(url.absoluteString)
        guard let colon = text.firstIndex(of: ":") else { return nil }
        text = text[text.index(after: colon)...]
        if text.hasPrefix("//") {
            text = text.dropFirst(2)
            let hostEnd = text.firstIndex(of: "/") ?? text.endIndex
            let host = text[..<hostEnd].lowercased()
            guard host.isEmpty || host == "localhost" else { return nil }
            text = text[hostEnd...]
        }
        if let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<end] }
        guard let decoded = Self.percentDecoded(Array(text.utf8)), !decoded.isEmpty, !decoded.contains(0) else {
            return nil
        }
        bytes = decoded
    }

    /// A `file:` URL that gives back exactly these bytes through `init(fileURL:)`.
    public var fileURL: URL {
        var encoded = "file://"
        for byte in bytes {
            if Self.keptInURL.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return URL(string: encoded)!
    }

    /// The path as text: valid UTF-8 as it is, each byte that is not shown as `\xNN`. Control characters are left
    /// for the screen's escaping to show.
    public var description: String { UTF8Validation.escapingInvalidBytes(bytes) }

    /// The last component's bytes.
    public var lastComponent: [UInt8] {
        let trimmed = bytes.last == UInt8(ascii: "/") && bytes.count > 1 ? Array(bytes.dropLast()) : bytes
        guard let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) else { return trimmed }
        return Array(trimmed[(slash + 1)...])
    }

    /// This path with a component added.
    public func appending(_ component: [UInt8]) -> LocalPath {
        if bytes.isEmpty { return LocalPath(bytes: component) }
        return LocalPath(bytes: bytes.last == UInt8(ascii: "/") ? bytes + component : bytes + [UInt8(ascii: "/")] + component)
    }

    /// Runs `body` with the path as a NUL-terminated C string.
    public func withCString<T>(_ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    private static func percentDecoded(_ text: [UInt8]) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            if text[index] == UInt8(ascii: "%") {
                guard index + 2 < text.count, let high = text[index + 1].hexDigitValue,
                      let low = text[index + 2].hexDigitValue else { return nil }
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(text[index])
                index += 1
            }
        }
        return result
    }

    /// Bytes written as themselves in a file URL's path: RFC 3986's unreserved characters and `/`.
    private static let keptInURL: Set<UInt8> = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8))
}
