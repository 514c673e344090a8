import Codecs
@testable import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Pixels
import TestSupport
import Testing

/// The demo's catalogue of thousands of rows over real HTTP: numbered specimens after the species and cases, each
/// row's picture its own with the row's number drawn over it, and faults that outlast the client's retries.
@Suite struct DemoCatalogueTests {
    static func get(_ url: String) async throws -> (body: Data, response: HTTPURLResponse) {
        try await DemoServerTests.get(URL(string: url)!)
    }

    static func answer(_ base: String, _ name: String) async throws -> [String: Any] {
        let query = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return try #require(try JSONSerialization.jsonObject(with: try await get(base + "/ia/?q=\(query)%20star%20wars&format=json").body)
            as? [String: Any])
    }

    @Test func numberedSpecimensFollowTheSpeciesAndCasesUpToTheRowsAsked() async throws {
        try await withDemoServer(.init(demoCases: true, rows: 2000)) { server in
            let base = server.baseURL.absoluteString
            let page5 = try #require(try JSONSerialization.jsonObject(
                with: try await Self.get(base + "/api/species/?page=5").body) as? [String: Any])
            #expect(page5["count"] as? Int == 2000)
            let names = (page5["results"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
            #expect(names.count == 10)
            #expect(names[2] == "A file that is not an image at all", "the demo cases stay at rows 38-43")
            #expect(Array(names[3...]) == (44...50).map { "Specimen \($0)" })
            let last = try #require(try JSONSerialization.jsonObject(
                with: try await Self.get(base + "/api/species/?page=200").body) as? [String: Any])
            #expect(last["next"] is NSNull)
            #expect(((last["results"] as? [[String: Any]])?.last?["name"] as? String) == "Specimen 2000")
            #expect(try await Self.get(base + "/api/species/?page=201").response.statusCode == 404)
        }
    }

    @Test func everyRowsPictureCarriesItsNumberAndIsItsOwn() async throws {
        try await withDemoServer(.init(demoCases: true, rows: 2000)) { server in
            let base = server.baseURL.absoluteString
            // Rows 1 and 9 show the same photo (chelsea): their pictures still differ, by the number on them.
            let human = try await Self.answer(base, "Human")
            #expect(human["Image"] as? String == "/media/chelsea.png?row=1")
            let specimen = try await Self.answer(base, "Specimen 1001")
            let specimenImage = try #require(specimen["Image"] as? String)
            #expect(specimenImage.hasSuffix("?row=1001"))
            let past = try await Self.answer(base, "Specimen 2001")
            #expect(past["Image"] as? String == "", "past the last row there is no specimen")

            let (one, response) = try await Self.get(base + "/media/chelsea.png?row=1")
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
            let nine = try await Self.get(base + "/media/chelsea.png?row=9").body
            #expect(one != nine)
            #expect(try await Self.get(base + "/media/chelsea.png?row=1").body == one, "the same row, the same picture")
            let decoded = try ImageDecoder.decode(one)
            #expect(decoded.format == .jpeg)
            #expect(max(decoded.bitmap.width, decoded.bitmap.height) == NumberedPhotos.maxSide)
            // The "1" glyph's stem runs down the middle in white; left of it, the band darkens the photo.
            let middle = decoded.bitmap[decoded.bitmap.width / 2, decoded.bitmap.height / 2]
            #expect(min(middle.r, middle.g, middle.b) > 200, "\(middle)")
            let original = try ImageDecoder.decode(try await Self.get(base + "/media/chelsea.png").body)
            #expect(original.format == .png, "without ?row the bundled file is served as it is")
            #expect(try await Self.get(base + "/media/truncated.jpg?row=1").response.statusCode == 404,
                    "the broken test files are not numbered")
        }
    }

    @Test func theDigitsAreDrawnWhereTheLayoutSays() {
        let photo = Bitmap(width: 90, height: 60, fill: .init(r: 90, g: 150, b: 210))
        let stamped = NumberedPhotos.stamp(7, on: photo)
        let layout = DigitLayout(text: "7", width: 90, height: 60, widthShare: 0.9, heightShare: 0.6)
        guard let lit = layout.squares.first, let band = layout.bounds else {
            Issue.record("no digits laid out")
            return
        }
        #expect(stamped[lit.columns.lowerBound, lit.rows.lowerBound] == .init(r: 255, g: 255, b: 255))
        #expect(stamped[band.columns.lowerBound, band.rows.lowerBound] == .init(r: 30, g: 50, b: 70))
        #expect(stamped[0, 0] == photo[0, 0], "outside the band the photo is as it was")
    }

    @Test func photosWithFiveHexDigitColoursAreServed() async throws {
        try await withDemoServer { server in
            let base = server.baseURL.absoluteString
            let photo = try #require(try JSONSerialization.jsonObject(with: try await Self.get(base + "/photos/14").body)
                as? [String: Any])
            let url = try #require(photo["thumbnailUrl"] as? String)
            let color = try #require(url.split(separator: "/").dropLast().last)
            #expect(color.count == 5, "photo 14's colour has five hex digits: \(url)")
            let (body, response) = try await Self.get(url)
            #expect(response.statusCode == 200)
            let corner = try ImageDecoder.decode(body).bitmap[0, 0]
            #expect(color == "61a65")
            #expect([corner.r, corner.g, corner.b] == [0x06, 0x1A, 0x65], "read with a leading zero")
        }
    }

    @Test func aFailingPictureOutlastsTheClientsRetriesThenAnswers() async throws {
        try await withDemoServer(.init(failRate: 1, seed: 3)) { server in
            let url = server.baseURL.absoluteString + "/media/chelsea.png?row=5"
            for attempt in 1...DemoHandler.pictureFailingAttempts {
                let status = try? await Self.get(url).response.statusCode
                #expect(status != 200, "attempt \(attempt) fails")
            }
            let after = try await Self.get(url).response
            #expect(after.statusCode == 200)
        }
    }
}
