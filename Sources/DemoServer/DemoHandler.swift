import Basics
import FoundationEssentials
import Synchronization

/// Answers the demo server's requests: routes them, and applies the configured latency and faults.
final class DemoHandler: Sendable {
    typealias Reply = LoopbackServer.Response

    let data: DemoData
    let configuration: DemoServer.Configuration
    private let plan: FaultPlan
    private let attempts = Mutex<[String: Int]>([:])
    private let numberedPhotos: NumberedPhotos

    /// How many requests in a row a failing picture fails: one more than the image pipeline's automatic retries
    /// (`RetryPolicy.maxRetries`, 2), so that `--fail-rate` shows on the rows instead of being retried away.
    static let pictureFailingAttempts = 3

    init(data: DemoData, configuration: DemoServer.Configuration) {
        self.data = data
        self.configuration = configuration
        numberedPhotos = NumberedPhotos(directory: data.mediaDirectory)
        plan = FaultPlan(latency: configuration.latency, jitter: configuration.jitter,
                         failRate: configuration.failRate, seed: configuration.seed)
    }

    func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
        let key = request.path + "?" + request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let attempt = attempts.withLock { counts in
            counts[key, default: 0] += 1
            return counts[key]!
        }
        let isPicture = request.path.hasPrefix("/media/") || request.path.hasPrefix("/placeholder/")
        let decision = plan.decide(key: key, attempt: attempt,
                                   failingAttempts: isPicture ? Self.pictureFailingAttempts : 1)
        var query: [String: String] = [:]
        for item in request.query where query[item.name] == nil { query[item.name] = item.value }
        let host = request.host ?? "127.0.0.1"
        let routed = route(path: request.path, query: query, base: "http://\(host)")

        var reply = routed.reply
        if decision.fault == .serverError {
            reply = .json(["detail": "demo server: injected failure (--fail-rate)"], status: 500)
        }
        reply.headers["Access-Control-Expose-Headers"] = "Link, X-Total-Count"
        reply.delay = decision.delay + (routed.isListPage ? configuration.pageDelay : .zero)
        if decision.fault == .resetMidBody && reply.body.count > 1 { reply.dropAfter = reply.body.count / 2 }
        return reply
    }

    // MARK: Routes

    func route(path: String, query: [String: String], base: String) -> (reply: Reply, isListPage: Bool) {
        let parts = path.split(separator: "/").map(String.init)
        switch parts.first {
        case nil:
            return (index(base: base), false)
        case "api" where parts.count == 1:
            return (.json(["species": .string(base + "/api/species/")]), false)
        case "api" where parts.count == 2 && parts[1] == "species":
            return (speciesPage(query["page"], base: base), true)
        case "api" where parts.count == 3 && parts[1] == "species":
            return (speciesRecord(parts[2], base: base), false)
        case "ia" where parts.count == 1:
            return (instantAnswer(query["q"] ?? ""), false)
        case "photos" where parts.count == 1:
            return (photosPage(query, base: base, path: path), true)
        case "photos" where parts.count == 2:
            guard let id = Int(parts[1]), let photo = data.photos.first(where: { $0.id == id }) else {
                return (.json([:], status: 404), false)
            }
            return (.json(photoJSON(photo, base: base)), false)
        case "placeholder" where (3...4).contains(parts.count):
            return (placeholder(size: parts[1], color: parts[2], text: parts.count == 4 ? parts[3] : ""), false)
        case "media" where parts.count == 2:
            return (media(parts[1], row: query["row"].flatMap { Int($0) }), false)
        default:
            return (.notFound(), false)
        }
    }

    private func index(base: String) -> Reply {
        let text = """
            ThumbTable demo server
            \(base)/api/species/?page=1            SWAPI-shaped species, \(configuration.pageSize) a page
            \(base)/ia/?q=Wookie%20star%20wars&format=json   DuckDuckGo-Instant-Answer-shaped lookups
            \(base)/photos?_page=1&_limit=10     jsonplaceholder-shaped photos (Link, X-Total-Count)
            \(base)/placeholder/150/92c952/1     a placeholder PNG with the photo id drawn on it
            \(base)/media/chelsea.png            the bundled photos (credits in Resources/demo/CREDITS.md)
            \(base)/media/chelsea.png?row=7      a bundled photo with a row's number drawn over it (a JPEG)

            """
        return Reply(status: 200, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// The species and demo cases the list shows: the fixtures, then the demo cases when asked for.
    var namedCount: Int { data.species.count + (configuration.demoCases ? data.demoCases.count : 0) }

    /// The rows of the species list: the named ones, then numbered specimens up to `Configuration.rows`.
    var speciesCount: Int { max(namedCount, configuration.rows) }

    /// The title of the numbered specimen in row `row` (from 1).
    static func specimenName(row: Int) -> String { "Specimen \(row)" }

    /// The row of a numbered specimen's title, if it is one the list has.
    func specimenRow(named name: String) -> Int? {
        guard name.hasPrefix("Specimen "), let row = Int(name.dropFirst("Specimen ".count)),
              row > namedCount, row <= speciesCount else { return nil }
        return row
    }

    private func speciesJSON(at index: Int, base: String) -> JSONValue {
        let api = base + "/api/"
        if index >= namedCount {
            let row = index + 1
            return [
                "name": .string(Self.specimenName(row: row)), "classification": "numbered specimen",
                "designation": .string("row \(row) of \(speciesCount): its picture carries the number \(row)"),
                "average_height": "n/a", "skin_colors": "n/a", "hair_colors": "n/a", "eye_colors": "n/a",
                "average_lifespan": "n/a", "homeworld": nil, "language": "n/a", "people": [], "films": [],
                "created": "2025-01-01T00:00:00.000Z", "edited": "2025-01-01T00:00:00.000Z",
                "url": .string(api + "species/\(row)/"),
            ]
        }
        if index >= data.species.count {
            let demoCase = data.demoCases[index - data.species.count]
            return [
                "name": .string(demoCase.name), "classification": "ThumbTable demo case",
                "designation": .string(demoCase.note), "average_height": "n/a", "skin_colors": "n/a",
                "hair_colors": "n/a", "eye_colors": "n/a", "average_lifespan": "n/a", "homeworld": nil,
                "language": "n/a", "people": [], "films": [], "created": "2025-01-01T00:00:00.000Z",
                "edited": "2025-01-01T00:00:00.000Z", "url": .string(api + "species/\(index + 1)/"),
            ]
        }
        let species = data.species[index]
        var record: [String: JSONValue] = [:]
        for (key, value) in species.fields {
            switch key {
            case "homeworld": record[key] = value.int.map { .string(api + "planets/\($0)/") } ?? .null
            case "people":
                if case .array(let keys) = value {
                    record[key] = .array(keys.compactMap { $0.int.map { .string(api + "people/\($0)/") } })
                }
            default: record[key] = value
            }
        }
        record["films"] = record["films"] ?? []
        record["url"] = .string(api + "species/\(species.pk)/")
        return .object(record)
    }

    private func speciesPage(_ page: String?, base: String) -> Reply {
        guard let number = page.map({ Int($0) }) ?? 1, number >= 1 else { return .notFound("Invalid page.") }
        let start = (number - 1) * configuration.pageSize
        guard start < speciesCount else { return .notFound() }
        let end = min(speciesCount, start + configuration.pageSize)
        let pageURL = { (n: Int) -> JSONValue in .string(base + "/api/species/?page=\(n)") }
        return .json([
            "count": .number(Double(speciesCount)),
            "next": end < speciesCount ? pageURL(number + 1) : nil,
            "previous": number > 1 ? pageURL(number - 1) : nil,
            "results": .array((start..<end).map { speciesJSON(at: $0, base: base) }),
        ])
    }

    private func speciesRecord(_ id: String, base: String) -> Reply {
        guard let number = Int(id), number >= 1, number <= speciesCount else { return .notFound() }
        return .json(speciesJSON(at: number - 1, base: base))
    }

    // MARK: Instant Answers

    /// Answers "NAME star wars" (or "NAME") for a species or demo case, like DuckDuckGo's Instant Answer API:
    /// every key present, empty when there is no value; some answers have no image, as real ones do.
    func instantAnswer(_ query: String) -> Reply {
        var name = query.trimmingSpaces()
        if name.lowercased().hasSuffix(" star wars") { name = String(name.dropLast(" star wars".count)) }
        var answer: [String: JSONValue] = [
            "Abstract": "", "AbstractText": "", "AbstractSource": "", "AbstractURL": "", "Answer": "",
            "AnswerType": "", "Definition": "", "DefinitionSource": "", "DefinitionURL": "", "Entity": "",
            "Heading": "", "Image": "", "ImageHeight": 0, "ImageIsLogo": 0, "ImageWidth": 0, "Infobox": "",
            "Redirect": "", "RelatedTopics": [], "Results": [], "Type": "", "meta": nil,
        ]
        func picture(_ media: DemoData.Media, row: Int? = nil) {
            answer["Image"] = .string("/media/\(media.file)" + (row.map { "?row=\($0)" } ?? ""))
            answer["AbstractSource"] = .string("scikit-image sample data, \(media.licence)")
            answer["AbstractURL"] = "https://scikit-image.org"
        }
        let pictures = data.pictures
        if let row = specimenRow(named: name) {
            answer["Heading"] = .string(name)
            answer["Type"] = "A"
            answer["Entity"] = "specimen"
            answer["AbstractText"] = .string("\(name): a numbered row of the demo; its picture carries the number \(row).")
            answer["Abstract"] = answer["AbstractText"]
            picture(pictures[(row - 1) % pictures.count], row: row)
        } else if let index = data.species.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) {
            let species = data.species[index]
            answer["Heading"] = .string(species.name)
            answer["Type"] = "A"
            answer["Entity"] = "species"
            let classification = species.fields["classification"]?.string ?? "unknown"
            answer["AbstractText"] = .string("\(species.name): \(classification) species of the Star Wars films "
                                             + "(SWAPI record \(species.pk)); the picture is a stand-in from the demo.")
            answer["Abstract"] = answer["AbstractText"]
            // One species in five has no picture, as many real answers have none.
            // The picture carries the species' row number (its place in the list).
            if species.pk % 5 != 0 {
                picture(pictures[(species.pk - 1) % pictures.count], row: index + 1)
            } else {
                answer["AbstractSource"] = "ThumbTable demo server"
            }
            if species.pk % 2 == 1 {
                answer["Infobox"] = ["content": [
                    ["data_type": "string", "label": "Classification", "value": .string(classification), "wiki_order": 0],
                    ["data_type": "string", "label": "Language",
                     "value": species.fields["language"] ?? "", "wiki_order": 1],
                ], "meta": []]
            }
        } else if let caseIndex = data.demoCases.firstIndex(where: { $0.name == name }) {
            let demoCase = data.demoCases[caseIndex]
            answer["Heading"] = .string(demoCase.name)
            answer["Type"] = "A"
            answer["AbstractText"] = .string(demoCase.note)
            answer["Abstract"] = .string(demoCase.note)
            // A real photo carries the case's row number; the broken files are served as they are.
            if let file = demoCase.image, let media = data.media.first(where: { $0.file == file }) {
                picture(media, row: pictures.contains { $0.file == file } ? data.species.count + caseIndex + 1 : nil)
            }
        }
        return .json(.object(answer))
    }

    // MARK: Photos

    private func photoJSON(_ photo: DemoData.Photo, base: String) -> JSONValue {
        [
            "albumId": .number(Double(photo.albumId)), "id": .number(Double(photo.id)), "title": .string(photo.title),
            "url": .string(base + "/placeholder/600/\(photo.color)/\(photo.id)"),
            "thumbnailUrl": .string(base + "/placeholder/150/\(photo.color)/\(photo.id)"),
        ]
    }

    /// json-server's pagination: `_page` (from 1) and `_limit` (10 by default), a bare array, `X-Total-Count`, and
    /// a `Link` header with first, prev, next and last. A page past the end is an empty array.
    private func photosPage(_ query: [String: String], base: String, path: String) -> Reply {
        let all = data.photos
        guard let pageText = query["_page"] else {
            return .json(.array(all.map { photoJSON($0, base: base) }))
        }
        let page = max(1, Int(pageText) ?? 1)
        let limit = max(1, Int(query["_limit"] ?? "") ?? 10)
        let start = min(all.count, (page - 1) * limit), end = min(all.count, start + limit)
        let last = max(1, (all.count + limit - 1) / limit)
        func link(_ n: Int, _ rel: String) -> String { "<\(base)\(path)?_page=\(n)&_limit=\(limit)>; rel=\"\(rel)\"" }
        var links = [link(1, "first")]
        if page > 1 { links.append(link(page - 1, "prev")) }
        if page < last { links.append(link(page + 1, "next")) }
        links.append(link(last, "last"))
        return .json(.array(all[start..<end].map { photoJSON($0, base: base) }),
                     headers: ["X-Total-Count": String(all.count), "Link": links.joined(separator: ", ")])
    }

    private func placeholder(size: String, color: String, text: String) -> Reply {
        guard let side = Int(size), (1...Placeholder.maxSize).contains(side) else {
            return .notFound("The size must be 1 to \(Placeholder.maxSize) pixels.")
        }
        guard let background = Placeholder.color(hex: color) else {
            return .notFound("The colour must be six hex digits, like 92c952.")
        }
        guard let png = try? Placeholder.png(size: side, background: background, text: text) else {
            return .notFound()
        }
        return Reply(status: 200, headers: ["Content-Type": "image/png", "Cache-Control": "max-age=86400"], body: png)
    }

    /// A bundled photo as it is, or with a row's number drawn over it (`?row=N`, a JPEG, for the real pictures only:
    /// the test files stay as broken as they are).
    private func media(_ file: String, row: Int?) -> Reply {
        if let row {
            guard row >= 1, row <= 1_000_000, data.pictures.contains(where: { $0.file == file }) else {
                return .notFound("Only the bundled photos are numbered, for rows 1 to 1000000.")
            }
            guard let jpeg = numberedPhotos.jpeg(file: file, number: row) else { return .notFound() }
            return Reply(status: 200, headers: ["Content-Type": "image/jpeg", "Cache-Control": "max-age=86400"],
                         body: jpeg)
        }
        guard data.media.contains(where: { $0.file == file }),
              let bytes = FileManager.default.contents(atPath: data.mediaDirectory.appendingPathComponent(file).path)
        else { return .notFound() }
        let type = file.hasSuffix(".jpg") ? "image/jpeg" : "image/png"
        return Reply(status: 200, headers: ["Content-Type": type], body: [UInt8](bytes))
    }
}

extension LoopbackServer.Response {
    static func json(_ value: JSONValue, status: Int = 200, headers: [String: String] = [:]) -> Self {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return Self(status: status, headers: headers, body: value.encoded)
    }

    static func notFound(_ detail: String = "Not found") -> Self {
        .json(["detail": .string(detail)], status: 404)
    }
}
