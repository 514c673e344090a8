/// What a source left out or repaired on one item of a page (a link it refused), by the item's place in the page: the
/// list names the item by the row the header numbers, which only it knows, since it holds the rows loaded before.
public struct ItemNote: Sendable, Equatable {
    /// The item's index in its page, from 0.
    public var index: Int
    /// What happened to it, in words for the status line (`"file:///etc/passwd" was refused: …`).
    public var text: String
    /// What a count of such notes says when there are too many to name each ("refused links").
    public var countedAs: String

    public init(index: Int, text: String, countedAs: String) {
        self.index = index
        self.text = text
        self.countedAs = countedAs
    }
}
