import Codecs
import FoundationEssentials
import LocalFiles

/// Why a thumbnail could not be made.
public enum PipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    case load(LoadError)
    /// The bytes are not a picture that decodes (damaged, cut short, another format).
    case decode(url: URL, reason: String)
    /// The picture is sound but over a limit (pixels, memory, bytes): fetching it again would not help.
    case overLimit(url: URL, reason: String)

    public var description: String {
        switch self {
        case .load(let error): error.description
        case .decode(let url, let reason), .overLimit(let url, let reason): "\(Self.shown(url)): \(reason)"
        }
    }

    /// A URL as a message names it: a local file by its path (bytes that are not UTF-8 as `\xNN`).
    static func shown(_ url: URL) -> String {
        LocalPath(fileURL: url)?.description ?? url.absoluteString
    }
}

extension PipelineError {
    /// Whether the failure is remembered for the run and answered again without a request: a permanent load
    /// failure (`LoadError.isPermanent`), or bytes that do not decode (fetched afresh: a damaged disk entry is
    /// refetched before this is decided). Not a picture over a limit: another size of it may fit.
    var isRemembered: Bool {
        switch self {
        case .load(let error): error.isPermanent
        case .decode: true
        case .overLimit: false
        }
    }

    /// A decoder's error as the pipeline reports it: the one place `DecodeError` becomes `PipelineError`.
    init(_ error: DecodeError, url: URL) {
        switch error {
        case .inputTooLarge, .imageTooLarge, .needsTooMuchMemory, .needsTooMuchWork:
            // The same bytes downloaded again would be refused again: not a damaged cache entry.
            self = .overLimit(url: url, reason: error.description)
        default:
            self = .decode(url: url, reason: error.description)
        }
    }
}
