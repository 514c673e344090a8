import FoundationEssentials

/// What the demo server serves, read once from `Resources/demo`: the SWAPI species fixtures, the jsonplaceholder
/// photos, the bundled photos with their credits, and the demo cases.
struct DemoData: Sendable {
    /// A species as the fixture has it (Django dumpdata: relations are integer keys, values are strings).
    struct Species: Sendable {
        var pk: Int
        var fields: [String: JSONValue]
        var name: String { fields["name"]?.string ?? "" }
    }

    /// A record appended to the species list to show a hard case, and the bundled file its image lookup answers.
    struct DemoCase: Sendable, Decodable {
        var name: String
        var note: String
        var image: String?
    }

    /// A bundled photo and its credit.
    struct Media: Sendable, Decodable {
        var file: String
        var picture: String
        var licence: String
    }

    /// A jsonplaceholder photo record.
    struct Photo: Sendable, Decodable {
        var albumId: Int
        var id: Int
        var title: String
        var url: String
        var thumbnailUrl: String

        /// The placeholder colour of the record's own URL (`https://via.placeholder.com/600/92c952` → `92c952`).
        var color: String { url.split(separator: "/").last.map(String.init) ?? "808080" }
    }

    var species: [Species]
    var demoCases: [DemoCase]
    var media: [Media]
    var photos: [Photo]
    /// The folder of the bundled photos.
    var mediaDirectory: URL

    init(directory: URL) throws(DemoServer.Error) {
        func read(_ name: String) throws(DemoServer.Error) -> Data {
            let file = directory.appendingPathComponent(name)
            do {
                return try Data(contentsOf: file)
            } catch {
                throw .dataUnreadable(path: file.path, reason: String(describing: error))
            }
        }
        func decode<T: Decodable>(_ type: T.Type, _ name: String) throws(DemoServer.Error) -> T {
            let data = try read(name)
            do {
                return try JSONDecoder().decode(T.self, from: data)
            } catch {
                throw .dataUnreadable(path: directory.appendingPathComponent(name).path, reason: "\(error)")
            }
        }
        struct Fixture: Decodable {
            var pk: Int
            var fields: [String: JSONValue]
        }
        species = try decode([Fixture].self, "swapi/species.json").map { Species(pk: $0.pk, fields: $0.fields) }
            .sorted { $0.pk < $1.pk }
        demoCases = try decode([DemoCase].self, "demo-cases.json")
        media = try decode([Media].self, "media.json")
        photos = try decode([Photo].self, "jsonplaceholder/photos.json")
        mediaDirectory = directory.appendingPathComponent("photos")
    }

    /// The photos a species' image lookup can answer with: the real pictures, not the test files.
    var pictures: [Media] {
        media.filter { !["truncated.jpg", "broken.png", "palette_color.png"].contains($0.file) }
    }
}

/// Any JSON value, decoded and encoded as it is.
enum JSONValue: Sendable, Hashable, Codable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 { try container.encode(Int(value)) } else { try container.encode(value) }
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var int: Int? {
        if case .number(let value) = self { return Int(exactly: value) }
        return nil
    }

    /// The JSON text, keys sorted so answers are stable.
    var encoded: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? [UInt8](encoder.encode(self))) ?? Array("null".utf8)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .number(Double(value)) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
    init(nilLiteral: ()) { self = .null }
}
