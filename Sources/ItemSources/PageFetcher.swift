import FoundationEssentials
import HTTP
import Items

/// Fetches a page of an API over HTTP and turns every way it can fail into an `ItemSourceError` naming the URL and
/// what was wrong: what the item sources share.
struct PageFetcher: Sendable {
    var timeout: TimeInterval = 15
    /// The largest page accepted.
    static let maxBytes = 32 << 20
    /// What reading one page's JSON may cost.
    var limits = JSONPageReader.Limits.default

    /// A body and the reply it came with; a status outside 200-299 is an error quoting the start of the body.
    func get(_ url: URL, accept: String = "application/json") async throws -> (body: [UInt8], reply: HTTPReply) {
        // The client names itself "ThumbTable" in the User-Agent.
        let request = HTTPGet(url: url, headers: [("Accept", accept)], maxBytes: Self.maxBytes,
                              timeout: .seconds(timeout))
        let reply: HTTPReply
        do {
            reply = try await HTTPClient.shared.get(request)
        } catch let failure as HTTPFailure {
            throw ItemSourceError("cannot load \(url.absoluteString): \(Self.reason(failure)).")
        }
        let body = reply.body
        if !reply.isSuccess {
            let detail = Self.snippet(body)
            throw ItemSourceError("\(url.absoluteString) answered HTTP \(reply.status)"
                                  + (detail.isEmpty ? "" : " \(detail)") + ".")
        }
        return (body, reply)
    }

    /// Why a page could not be had, in a few words.
    static func reason(_ failure: HTTPFailure) -> String {
        switch failure {
        case .tooLarge: "the page is larger than \(PageFetcher.maxBytes >> 20) MB"
        default: failure.description
        }
    }

    /// A page's JSON, the reply it came with, and what reading it left out or repaired.
    struct JSONPage {
        var json: Any
        var reply: HTTPReply
        var notes: [String]
    }

    /// The JSON body at `url`, read within `limits`; a body that is not JSON is an error quoting its start.
    func json(_ url: URL) async throws -> JSONPage {
        let (body, reply) = try await get(url)
        let read = try Self.read(body, from: url, limits: limits)
        return JSONPage(json: read.value, reply: reply, notes: read.note.map { ["\(url.absoluteString): \($0)"] } ?? [])
    }

    /// Reads a body as JSON within `limits`; an empty body, or one that is not JSON, is an error quoting its start.
    static func read(_ body: [UInt8], from url: URL, limits: JSONPageReader.Limits = .default) throws(ItemSourceError)
        -> JSONPageReader.Result
    {
        guard !body.isEmpty else { throw ItemSourceError("\(url.absoluteString) answered an empty body, not JSON") }
        do {
            return try JSONPageReader.read(body, limits: limits)
        } catch {
            throw ItemSourceError("\(url.absoluteString) did not answer with JSON (\(error)): \(Self.snippet(body))")
        }
    }

    /// Untrusted text for a message: in quotes, cut to `limit` characters with `…`.
    static func quote(_ text: String, limit: Int = 80) -> String {
        "\"" + (text.count > limit ? text.prefix(limit) + "…" : text) + "\""
    }

    /// The first 60 characters of a body, on one line, for a message.
    static func snippet(_ data: [UInt8]) -> String {
        let text = String(decoding: data.prefix(60), as: UTF8.self)
            .replacing("\n", with: " ").replacing("\r", with: " ")
        return data.count > 60 ? text + "…" : text
    }

    /// How a JSON value is described in a message: "a number", "a list", "text".
    static func kind(_ value: Any?) -> String {
        switch value {
        case nil, is JSONPageReader.JSONNull: "null"
        case is String: "text"
        case is Int, is JSONPageReader.JSONNumber: "a number"
        case is Bool: "true or false"
        case is [Any]: "a list"
        case is [String: Any]: "an object"
        default: "something else"
        }
    }
}
