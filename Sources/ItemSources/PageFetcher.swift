import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Items

/// Fetches a page of an API over HTTP and turns every way it can fail into an `ItemSourceError` naming the URL and
/// what was wrong: what the item sources share.
struct PageFetcher: Sendable {
    var timeout: TimeInterval = 15
    /// Said after a failure the table can retry (a page); left out where it cannot (an image lookup).
    var retryHint = " Press r to retry."

    /// A body and the response it came with; a status outside 200-299 is an error quoting the start of the body.
    func get(_ url: URL, accept: String = "application/json") async throws -> (body: Data, response: HTTPURLResponse?) {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.setValue(accept, forHTTPHeaderField: "Accept")
        request.setValue("ThumbTable", forHTTPHeaderField: "User-Agent")
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as URLError where error.code == .cancelled {
            throw CancellationError()
        } catch {
            var reason = error.localizedDescription
            while reason.hasSuffix(".") { reason.removeLast() }
            throw ItemSourceError("cannot load \(url.absoluteString): \(reason)." + retryHint)
        }
        let http = response as? HTTPURLResponse
        if let http, !(200..<300).contains(http.statusCode) {
            let detail = Self.snippet(data)
            throw ItemSourceError("\(url.absoluteString) answered HTTP \(http.statusCode)"
                                  + (detail.isEmpty ? "" : " \(detail)") + "." + retryHint)
        }
        return (data, http)
    }

    /// The JSON body at `url`; a body that is not JSON is an error quoting its start.
    func json(_ url: URL) async throws -> (json: Any, response: HTTPURLResponse?) {
        let (body, response) = try await get(url)
        guard !body.isEmpty else { throw ItemSourceError("\(url.absoluteString) answered an empty body, not JSON") }
        do {
            return (try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]), response)
        } catch {
            throw ItemSourceError("\(url.absoluteString) did not answer with JSON: \(Self.snippet(body))")
        }
    }

    /// The first 60 characters of a body, on one line, for a message.
    static func snippet(_ data: Data) -> String {
        let text = String(decoding: data.prefix(60), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
        return data.count > 60 ? text + "…" : text
    }

    /// How a JSON value is described in a message: "a number", "a list", "text".
    static func kind(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: "null"
        case is String: "text"
        case is NSNumber: "a number"
        case is [Any]: "a list"
        case is [String: Any]: "an object"
        default: "something else"
        }
    }
}
