import FoundationEssentials

/// One row of the list: what a source knows about a thing and its picture.
public struct Item: Sendable, Hashable, Identifiable {
    public var id: String
    public var title: String
    public var subtitle: String
    /// Labelled values for the detail pane, in the source's order (an image lookup's come after them: `allFields`).
    public var fields: [Field]
    /// The full-size image (shown in the detail pane).
    public var imageURL: URL?
    /// A small image for the row's thumbnail; the full-size one is used when absent.
    public var thumbnailURL: URL?
    /// Who the picture is from, shown under the row ("Image from ...").
    public var attribution: String?
    /// What the lookup of the picture found, for a source that asks a second server for it (SWAPI's Instant
    /// Answers); nil for a source without one.
    public var imageLookup: ImageLookup?
    /// The line of input this item was read from, byte for byte (a list piped in on stdin): what a picker prints
    /// back, even when it is not UTF-8. Nil for an item from anywhere else.
    public var inputLine: [UInt8]?

    public init(id: String, title: String, subtitle: String = "", fields: [Field] = [], imageURL: URL? = nil,
                thumbnailURL: URL? = nil, attribution: String? = nil, imageLookup: ImageLookup? = nil) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.fields = fields
        self.imageURL = imageURL
        self.thumbnailURL = thumbnailURL
        self.attribution = attribution
        self.imageLookup = imageLookup
    }

    /// The URL a row's thumbnail is loaded from.
    public var rowImageURL: URL? { thumbnailURL ?? imageURL }

    /// Why the lookup of the picture failed: an item without an image URL and with this failed to find its picture,
    /// rather than having none.
    public var imageLookupFailure: String? { imageLookup?.failure }

    /// Every labelled value of the item: the source's fields, then its image lookup's.
    public var allFields: [Field] { fields + (imageLookup?.fields ?? []) }

    /// A labelled value of an item.
    public struct Field: Sendable, Hashable {
        public var label: String
        public var value: String
        /// What the value links to, when the source knows it is a link; nil for plain text. `o` and `y` take a
        /// field as the item's page only when its source says so here, never because of words in its label.
        public var link: Link?

        public init(_ label: String, _ value: String, link: Link? = nil) {
            self.label = label
            self.value = value
            self.link = link
        }

        /// What a field's URL is, as the source that made the field says.
        public enum Link: Sendable, Hashable {
            /// A page for people to read (SWAPI's Instant Answer's `AbstractURL`, Flickr's `link`): what `o` opens.
            case page
            /// A picture (shown already as the row's or the pane's image).
            case image
            /// An API's record or answer: JSON for programs (SWAPI's `url` and `homeworld`, a lookup's request).
            case record
            /// A link the source refused to follow (not http or https).
            case refused
        }
    }
}

/// One page of items and where the next one is.
public struct ItemPage: Sendable {
    public var items: [Item]
    /// The cursor of the next page, or nil at the end of the list.
    public var next: PageCursor?
    /// The total number of items, when the source says.
    public var totalCount: Int?
    /// Whether `totalCount` is what the source has found so far, with more on the way (a folder still being walked).
    public var stillCounting: Bool
    /// What the source left out or repaired on this page, in words for the status line: links it refused, items
    /// past a limit, text that was not UTF-8. The rows that could be read are kept.
    public var notes: [String]
    /// Notes about single items of this page, after `notes` in the status line, each naming its item's row.
    public var itemNotes: [ItemNote]

    public init(items: [Item], next: PageCursor?, totalCount: Int? = nil, stillCounting: Bool = false,
                notes: [String] = [], itemNotes: [ItemNote] = []) {
        self.items = items
        self.next = next
        self.totalCount = totalCount
        self.stillCounting = stillCounting
        self.notes = notes
        self.itemNotes = itemNotes
    }
}

/// Where a page is: a URL from a `next` link, a page number, or an offset into a listing.
public enum PageCursor: Sendable, Hashable {
    case url(URL)
    case number(Int)
    case offset(Int)
}
