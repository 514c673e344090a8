import Crypto
import FoundationEssentials

/// An entry and its file: a magic number, a length-prefixed JSON header (`Metadata`), then the bytes.
extension DiskCache {
    /// What is known about an entry's bytes.
    public struct Metadata: Codable, Sendable, Equatable {
        /// `absoluteString` of the URL the bytes came from.
        public var url: String
        public var contentType: String?
        /// Validators, sent back when the entry is revalidated.
        public var etag: String?
        public var lastModified: String?
        public var byteCount: Int
        /// Lowercase hex SHA-256 of the bytes.
        public var sha256: String
        /// When the entry was written, to the second.
        public var storedAt: Date
        /// What the response said about reusing the bytes; nil in an entry written before revalidation was, or for
        /// bytes no server described (then the default lifetime from `storedAt` applies).
        public var freshness: CacheFreshness?

        public init(url: String, contentType: String?, etag: String?, lastModified: String?, byteCount: Int,
                    sha256: String, storedAt: Date, freshness: CacheFreshness? = nil) {
            self.url = url
            self.contentType = contentType
            self.etag = etag
            self.lastModified = lastModified
            self.byteCount = byteCount
            self.sha256 = sha256
            self.storedAt = storedAt
            self.freshness = freshness
        }
    }

    /// A cached image: its bytes and what is known about them.
    public struct Entry: Sendable, Equatable {
        public var bytes: [UInt8]
        public var metadata: Metadata

        /// The bytes and validators as a loader would have returned them.
        public var loadedData: LoadedData {
            LoadedData(bytes: bytes, contentType: metadata.contentType, etag: metadata.etag,
                       lastModified: metadata.lastModified, freshness: metadata.freshness)
        }

        /// Whether the bytes may be used now without asking the server: within the lifetime the response gave, or
        /// else the default lifetime (`CacheFreshness.heuristicLifetime`) from when the entry was stored.
        public func isFresh(at now: Date) -> Bool {
            if let freshness = metadata.freshness { return freshness.isFresh(at: now) }
            let lifetime = CacheFreshness.heuristicLifetime(lastModified: metadata.lastModified, at: metadata.storedAt)
            return now < metadata.storedAt.addingTimeInterval(lifetime)
        }
    }

    /// A header longer than this is garbage, not a long URL.
    private static let maxHeaderLength = 1 << 20

    /// magic, header length (UInt32, big-endian), JSON header, bytes.
    static func encode(_ metadata: Metadata, bytes: [UInt8]) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .secondsSince1970
        // Encoding a struct of strings, numbers, booleans and dates cannot fail.
        let header = Array(try! encoder.encode(metadata))
        let magic = DiskCacheFolder.magic
        var file = magic
        file.reserveCapacity(magic.count + 4 + header.count + bytes.count)
        let length = UInt32(header.count)
        file += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        file += header
        file += bytes
        return file
    }

    /// The entry in `file` if it is whole, for `url`, and its bytes match their checksum; else nil.
    static func decode(_ file: [UInt8], url: URL) -> Entry? {
        let magic = DiskCacheFolder.magic
        let headerStart = magic.count + 4
        guard file.count >= headerStart, file.starts(with: magic) else { return nil }
        let length = file[magic.count..<headerStart].reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, length <= maxHeaderLength, headerStart + length <= file.count else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let metadata = try? decoder.decode(Metadata.self, from: Data(file[headerStart..<headerStart + length])),
              metadata.url == url.absoluteString
        else { return nil }
        let bytes = file[(headerStart + length)...]
        guard bytes.count == metadata.byteCount, hex(SHA256.hash(data: bytes)) == metadata.sha256 else { return nil }
        return Entry(bytes: Array(bytes), metadata: metadata)
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(SHA256.byteCount * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
