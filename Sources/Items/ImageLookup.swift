import FoundationEssentials

/// What a source's second request for an item's picture found (SWAPI asks DuckDuckGo's Instant Answers): data of
/// its own on the item, beside the source's fields, and replaced whole when the lookup is asked again (`r`).
public enum ImageLookup: Sendable, Hashable {
    /// The lookup answered, with or without a picture.
    case answered(Answer)
    /// The lookup failed (the request, or an answer that is not JSON); the reason is shown, and `r` asks again.
    case failed(reason: String)

    /// What an answer says about a name's picture.
    public struct Answer: Sendable, Hashable {
        /// The query that was asked ("Wookie star wars").
        public var query: String
        /// The URL that was asked.
        public var url: URL
        public var heading: String
        /// The picture, resolved to an absolute URL; nil when the answer has none.
        public var image: URL?
        public var abstractSource: String
        public var abstractURL: String
        public var abstractText: String
        /// Why there is no image, in words for the detail pane; nil when there is one.
        public var noImageReason: String?

        public init(query: String, url: URL, heading: String = "", image: URL? = nil, abstractSource: String = "",
                    abstractURL: String = "", abstractText: String = "", noImageReason: String? = nil) {
            self.query = query
            self.url = url
            self.heading = heading
            self.image = image
            self.abstractSource = abstractSource
            self.abstractURL = abstractURL
            self.abstractText = abstractText
            self.noImageReason = noImageReason
        }
    }

    /// Why the lookup failed; nil when it answered.
    public var failure: String? {
        if case .failed(let reason) = self { reason } else { nil }
    }

    /// The detail pane's lines for the lookup, after the source's own fields: the request, the picture or why there
    /// is none, and the answer's abstract.
    public var fields: [Item.Field] {
        switch self {
        case .failed(let reason):
            return [Item.Field("Image", "lookup failed: \(reason)")]
        case .answered(let answer):
            var fields = [Item.Field("Image lookup", answer.url.absoluteString, link: .record)]
            if let image = answer.image {
                fields.append(Item.Field("Image", image.absoluteString, link: .image))
            } else {
                fields.append(Item.Field("Image", "none: \(answer.noImageReason ?? "no image in the answer")"))
            }
            if !answer.abstractSource.isEmpty { fields.append(Item.Field("Abstract source", answer.abstractSource)) }
            if !answer.abstractURL.isEmpty { fields.append(Item.Field("Abstract URL", answer.abstractURL, link: .page)) }
            if !answer.abstractText.isEmpty { fields.append(Item.Field("Abstract", answer.abstractText)) }
            return fields
        }
    }
}
