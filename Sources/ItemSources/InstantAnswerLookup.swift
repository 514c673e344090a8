import FoundationEssentials
import Items

/// The second step of the SWAPI tutorial's image lookup: asks a DuckDuckGo Instant Answer endpoint about
/// "NAME star wars" and reads `Image`, `AbstractSource` and `AbstractURL` from the answer.
///
/// Answers are cached by name (image and attribution together, as the tutorial's cache was), and concurrent lookups
/// of one name share one request. Only definite answers are kept, with or without an image; a failed request is
/// asked again next time.
public actor InstantAnswerLookup {
    /// What an answer says about a name's picture.
    public typealias Answer = ImageLookup.Answer

    /// The endpoint (`https://api.duckduckgo.com/`).
    public let endpoint: URL
    /// The words added to each name ("star wars").
    public let suffix: String
    private let fetcher: PageFetcher
    private var answers: [String: Answer] = [:]
    private var inFlight: [String: Task<Result<Answer, ItemSourceError>, Never>] = [:]

    public init(endpoint: URL, suffix: String = "star wars", timeout: TimeInterval = 15) {
        self.endpoint = endpoint
        self.suffix = suffix
        fetcher = PageFetcher(timeout: timeout)
    }

    /// The URL asked for `name`.
    public nonisolated func url(for name: String) -> URL {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: true) ?? URLComponents()
        var query = (components.queryItems ?? []).filter { $0.name != "q" && $0.name != "format" }
        query.append(URLQueryItem(name: "q", value: suffix.isEmpty ? name : "\(name) \(suffix)"))
        query.append(URLQueryItem(name: "format", value: "json"))
        components.queryItems = query
        return components.url ?? endpoint
    }

    /// The answer for `name`, from the cache when it has one.
    public func answer(for name: String) async -> Result<Answer, ItemSourceError> {
        if let cached = answers[name] { return .success(cached) }
        if let running = inFlight[name] { return await running.value }
        let url = url(for: name)
        let query = suffix.isEmpty ? name : "\(name) \(suffix)"
        let fetcher = self.fetcher, base = imageBase
        let task = Task { () -> Result<Answer, ItemSourceError> in
            do {
                let (body, _) = try await fetcher.get(url)
                return Self.parse(body, query: query, url: url, imageBase: base)
            } catch let error as ItemSourceError {
                return .failure(error)
            } catch {
                return .failure(ItemSourceError("the image lookup \(url.absoluteString) was cancelled"))
            }
        }
        inFlight[name] = task
        let result = await task.value
        inFlight[name] = nil
        if case .success(let answer) = result { answers[name] = answer }
        return result
    }

    /// Where relative `Image` paths point: DuckDuckGo's site for its API (as SearXNG resolves them), else the
    /// endpoint's own server.
    private var imageBase: URL {
        endpoint.host?.lowercased() == "api.duckduckgo.com" ? URL(string: "https://duckduckgo.com/")! : endpoint
    }

    /// Reads an answer. An empty body, a body that is not a JSON object, or an answer without `Image` all give an
    /// answer with no image and the reason; only a body that is not JSON at all is a failure.
    static func parse(_ body: [UInt8], query: String, url: URL, imageBase: URL) -> Result<Answer, ItemSourceError> {
        var answer = Answer(query: query, url: url)
        guard !body.isEmpty else {
            answer.noImageReason = "\(url.absoluteString) answered an empty body (no Instant Answer for \"\(query)\")"
            return .success(answer)
        }
        let json: Any
        do {
            json = try PageFetcher.read(body, from: url).value
        } catch {
            return .failure(ItemSourceError("the image lookup \(error.message)"))
        }
        guard let object = json as? [String: Any] else {
            answer.noImageReason = "\(url.absoluteString) answered \(PageFetcher.kind(json)), not an Instant Answer object"
            return .success(answer)
        }
        answer.heading = object["Heading"] as? String ?? ""
        answer.abstractSource = object["AbstractSource"] as? String ?? ""
        answer.abstractURL = object["AbstractURL"] as? String ?? ""
        answer.abstractText = object["AbstractText"] as? String ?? ""
        switch object["Image"] {
        case let path as String where !path.isEmpty:
            switch RemoteLink.resolve(path, against: imageBase) {
            case .success(let image): answer.image = image
            case .failure(let refusal):
                answer.noImageReason = "the Instant Answer for \"\(query)\" has an Image \(refusal)"
            }
        case nil:
            answer.noImageReason = "the Instant Answer for \"\(query)\" has no \"Image\" key (\(url.absoluteString))"
        case let path as String where path.isEmpty:
            answer.noImageReason = "the Instant Answer for \"\(query)\" has no image (\"Image\" is empty)"
        case let other:
            answer.noImageReason = "the Instant Answer for \"\(query)\" has \(PageFetcher.kind(other)) as \"Image\", "
                + "not a URL (\(url.absoluteString))"
        }
        return .success(answer)
    }
}
