/// What the terminal answered to detection's queries: each field nil until its reply arrived.
public struct TerminalReplies: Sendable, Equatable {
    /// The answer to kitty's `a=q` query: `OK`, or an error such as `ENOTSUPPORTED:...`.
    public var kittyQuery: String?
    /// The answer to the same query with `U=1` (placeholders): nil where the terminal did not know the key.
    public var kittyPlaceholderQuery: String?
    /// The primary device attributes (DA1), the first (the terminal class) included.
    public var primaryAttributes: [Int]?
    /// `CSI 16 t`'s answer, when plausible (`CellPixelSize(checkedWidth:height:)`).
    public var cellPixels: CellPixelSize?
    /// `CSI 16 t`'s answer as told, plausible or not (0, 65535...): what a note says when it was not believed.
    public var toldCellPixels: (width: Int, height: Int)?
    /// XTSMGRAPHICS's answers.
    public var sixelColorRegisters: Int?
    public var sixelMaxWidth: Int?
    public var sixelMaxHeight: Int?
    /// XTVERSION's answer, e.g. `kitty(0.35.2)`, its control characters removed.
    public var version: String?
    /// Answers to kitty commands other than the query (an upload's error), in arrival order.
    public var kittyResponses: [KittyResponse] = []

    public init() {}

    public static func == (lhs: TerminalReplies, rhs: TerminalReplies) -> Bool {
        lhs.kittyQuery == rhs.kittyQuery && lhs.kittyPlaceholderQuery == rhs.kittyPlaceholderQuery
            && lhs.primaryAttributes == rhs.primaryAttributes && lhs.cellPixels == rhs.cellPixels
            && lhs.toldCellPixels?.width == rhs.toldCellPixels?.width
            && lhs.toldCellPixels?.height == rhs.toldCellPixels?.height
            && lhs.sixelColorRegisters == rhs.sixelColorRegisters && lhs.sixelMaxWidth == rhs.sixelMaxWidth
            && lhs.sixelMaxHeight == rhs.sixelMaxHeight && lhs.version == rhs.version
            && lhs.kittyResponses == rhs.kittyResponses
    }

    /// Whether anything was answered at all: a terminal that has begun answering is alive, and will answer DA1.
    public var hasAnswers: Bool { self != TerminalReplies() }

    /// Whether DA1 lists sixel graphics (4 among the attributes after the terminal class).
    public var listsSixel: Bool {
        guard let attributes = primaryAttributes else { return false }
        return attributes.dropFirst().contains(4)
    }

    /// Whether kitty's query was answered OK.
    public var kittyAnswersOK: Bool { kittyQuery == "OK" }

    /// Whether kitty's query with the placeholder key was answered OK.
    public var kittyPlaceholdersAnswerOK: Bool { kittyPlaceholderQuery == "OK" }
}

/// A kitty graphics reply: `ESC _ G i=<id>[,I=..] ; <message> ESC \`.
public struct KittyResponse: Sendable, Equatable {
    /// The image id the reply is about; 0 when it names none.
    public var imageID: UInt32
    /// `OK`, or an error: an errno-like token, a colon and a text (`ENOENT:No such image`).
    public var message: String

    public init(imageID: UInt32, message: String) {
        self.imageID = imageID
        self.message = message
    }

    public var isOK: Bool { message == "OK" }

    /// The reply in an APC body (what follows `ESC _`, `G` included); nil when it is not a kitty graphics reply.
    /// The message keeps printable ASCII only: it comes from the terminal, and may reach the status line.
    public init?(apcBody body: [UInt8]) {
        guard body.first == UInt8(ascii: "G") else { return nil }
        let rest = body.dropFirst()
        let separator = rest.firstIndex(of: UInt8(ascii: ";")) ?? rest.endIndex
        var id: UInt32 = 0
        for pair in rest[rest.startIndex..<separator].split(separator: UInt8(ascii: ",")) {
            guard pair.count > 2, pair[pair.startIndex] == UInt8(ascii: "i"),
                  pair[pair.startIndex + 1] == UInt8(ascii: "=") else { continue }
            guard let value = UInt32(String(decoding: pair.dropFirst(2), as: UTF8.self)) else { return nil }
            id = value
        }
        let message = separator < rest.endIndex ? rest[(separator + 1)...] : []
        self.init(imageID: id, message: String(decoding: message.filter { (0x20...0x7E).contains($0) },
                                               as: UTF8.self))
    }
}
