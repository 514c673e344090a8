import Basics
import FoundationEssentials
import Items

/// A link found in data from a server (an image, a thumbnail, the next page, a lookup's picture), checked before
/// anything follows it.
///
/// A remote page may only point at http and https: a `file:` link would let any server make ThumbTable read the
/// user's files (`file:///etc/passwd` into the detail pane, `file:///dev/tty` reading the keys). `file:` URLs come
/// only from local sources: a folder, a file named on the command line.
enum RemoteLink {
    /// The label of the detail pane's field naming a link an item had and that was refused.
    static let fieldLabel = "Link refused"

    /// Why a link was not followed.
    struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// The link as the server wrote it.
        var text: String
        var reason: String
        var description: String { "\(PageFetcher.quote(text)) \(reason)" }
    }

    /// `text` resolved against the page it came from, if it is an http or https URL with a host. Without a page
    /// (JSON read from a pipe) only an absolute URL is taken.
    static func resolve(_ text: String, against page: URL?) -> Result<URL, Refusal> {
        let trimmed = text.trimmingSpaces()
        guard !trimmed.isEmpty else { return .failure(Refusal(text: text, reason: "is empty, not a link")) }
        guard let url = URL(string: trimmed, relativeTo: page)?.absoluteURL else {
            return .failure(Refusal(text: text, reason: "is not a URL"))
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            let scheme = url.scheme.map { "a \($0): link" } ?? "a link without a scheme"
            return .failure(Refusal(text: text, reason: "was refused: it is \(scheme), and a remote page may only "
                                    + "link to http and https"))
        }
        guard let host = url.host, !host.isEmpty else {
            return .failure(Refusal(text: text, reason: "has no host"))
        }
        return .success(url)
    }

    /// The note for an item of a page (at `index` in it) whose links were refused, or nil when none was.
    static func itemNote(index: Int, refused: [String]) -> ItemNote? {
        refused.isEmpty ? nil : ItemNote(index: index, text: refused.joined(separator: "; "), countedAs: "refused links")
    }

    /// The URL, or nil with the refusal's reason appended to `notes`.
    static func resolve(_ text: String, against page: URL?, notes: inout [String]) -> URL? {
        switch resolve(text, against: page) {
        case .success(let url): return url
        case .failure(let refusal):
            notes.append(refusal.description)
            return nil
        }
    }
}
