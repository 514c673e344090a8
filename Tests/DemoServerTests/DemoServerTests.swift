import Codecs
import DemoResources
@testable import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import Testing

/// The demo server over real HTTP on 127.0.0.1: the shapes it speaks, its images, its faults.
@Suite struct DemoServerTests {
    static func get(_ url: URL) async throws -> (body: Data, response: HTTPURLResponse) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let (body, response) = try await session.data(from: url)
        return (body, response as! HTTPURLResponse)
    }

    static func json(_ url: URL) async throws -> (Any, HTTPURLResponse) {
        let (body, response) = try await get(url)
        return (try JSONSerialization.jsonObject(with: body), response)
    }

    @Test func speciesPagesHaveSWAPIsShapeOverThe37Fixtures() async throws {
        try await withDemoServer { server in
            let base = server.baseURL.absoluteString
            let (first, response) = try await Self.json(URL(string: base + "/api/species/?page=1")!)
            #expect(response.statusCode == 200)
            let page = try #require(first as? [String: Any])
            #expect(page["count"] as? Int == 37)
            #expect(page["next"] as? String == base + "/api/species/?page=2")
            #expect(page["previous"] is NSNull)
            let results = try #require(page["results"] as? [[String: Any]])
            #expect(results.count == 10)
            #expect(results[0]["name"] as? String == "Human")
            #expect(results[0]["url"] as? String == base + "/api/species/1/")
            #expect(results[0]["homeworld"] as? String == base + "/api/planets/9/")
            #expect((results[0]["people"] as? [String])?.first == base + "/api/people/66/")
            #expect(results[1]["homeworld"] is NSNull, "the Droid species has no homeworld")

            let (last, _) = try await Self.json(URL(string: base + "/api/species/?page=4")!)
            let lastPage = try #require(last as? [String: Any])
            #expect((lastPage["results"] as? [Any])?.count == 7)
            #expect(lastPage["next"] is NSNull)
            #expect(lastPage["previous"] as? String == base + "/api/species/?page=3")
            #expect(((lastPage["results"] as? [[String: Any]])?.last?["name"] as? String) == "Pau'an")

            let (body, past) = try await Self.get(URL(string: base + "/api/species/?page=5")!)
            #expect(past.statusCode == 404)
            #expect(String(decoding: body, as: UTF8.self) == #"{"detail":"Not found"}"#)
        }
    }

    @Test func demoCasesFollowTheSpeciesWhenAskedFor() async throws {
        try await withDemoServer(.init(demoCases: true)) { server in
            func names(_ page: Int) async throws -> [String] {
                let url = URL(string: server.baseURL.absoluteString + "/api/species/?page=\(page)")!
                let json = try #require(try await Self.json(url).0 as? [String: Any])
                #expect(json["count"] as? Int == 43)
                return (json["results"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
            }
            let fourth = try await names(4)
            #expect(fourth[6] == "Pau'an", "the 37 species come first")
            #expect(fourth[7].hasPrefix("A deliberately long title"))
            #expect(fourth[9].hasPrefix("Hostile \u{1B}[31mred"))
            #expect(try await names(5) == ["An item without any image", "A truncated JPEG (the file stops after 400 bytes)",
                                           "A file that is not an image at all"])
        }
    }

    @Test func instantAnswersHaveDuckDuckGosShapeAndSomeHaveNoImage() async throws {
        try await withDemoServer { server in
            let base = server.baseURL.absoluteString
            let (wookie, _) = try await Self.json(URL(string: base + "/ia/?q=Wookie%20star%20wars&format=json")!)
            let answer = try #require(wookie as? [String: Any])
            #expect(answer["Heading"] as? String == "Wookie")
            let image = try #require(answer["Image"] as? String)
            #expect(image.hasPrefix("/media/"), "Image is a relative path, as DuckDuckGo's are")
            #expect(answer["AbstractURL"] as? String == "https://scikit-image.org")
            #expect((answer["AbstractSource"] as? String)?.hasPrefix("scikit-image sample data, ") == true)
            #expect(answer["Infobox"] is [String: Any], "an odd-numbered species has an Infobox object")
            let (picture, pictureResponse) = try await Self.get(URL(string: base + image)!)
            #expect(pictureResponse.statusCode == 200)
            #expect(ImageDecoder.sniff(picture) != nil, "the answer's image is served")

            let (hutt, _) = try await Self.json(URL(string: base + "/ia/?q=Hutt%20star%20wars&format=json")!)
            let noImage = try #require(hutt as? [String: Any])
            #expect(noImage["Heading"] as? String == "Hutt")
            #expect(noImage["Image"] as? String == "")
            let (droid, _) = try await Self.json(URL(string: base + "/ia/?q=Droid%20star%20wars&format=json")!)
            #expect((droid as? [String: Any])?["Infobox"] as? String == "", "Infobox is \"\" when there is none")

            let (nothing, response) = try await Self.json(URL(string: base + "/ia/?q=nothing%20at%20all&format=json")!)
            #expect(response.statusCode == 200)
            let empty = try #require(nothing as? [String: Any])
            #expect(empty["Heading"] as? String == "" && empty["Type"] as? String == "")
            #expect(empty.keys.contains("RelatedTopics") && empty.keys.contains("ImageWidth"))
        }
    }

    @Test func photosPageTheJSONServerWay() async throws {
        try await withDemoServer { server in
            let base = server.baseURL.absoluteString
            let (json, response) = try await Self.json(URL(string: base + "/photos?_page=2&_limit=10")!)
            let photos = try #require(json as? [[String: Any]])
            #expect(photos.map { $0["id"] as? Int } == Array(11...20))
            #expect(photos[0]["title"] as? String == "nihil at amet non hic quia qui")
            #expect(photos[0]["url"] as? String == base + "/placeholder/600/1ee8a4/11")
            #expect(photos[0]["thumbnailUrl"] as? String == base + "/placeholder/150/1ee8a4/11")
            #expect(response.value(forHTTPHeaderField: "X-Total-Count") == "5000")
            let link = try #require(response.value(forHTTPHeaderField: "Link"))
            #expect(link == "<\(base)/photos?_page=1&_limit=10>; rel=\"first\", "
                + "<\(base)/photos?_page=1&_limit=10>; rel=\"prev\", <\(base)/photos?_page=3&_limit=10>; rel=\"next\", "
                + "<\(base)/photos?_page=500&_limit=10>; rel=\"last\"")
            let (past, _) = try await Self.json(URL(string: base + "/photos?_page=501&_limit=10")!)
            #expect((past as? [Any])?.isEmpty == true, "past the end is an empty list, as json-server answers")
        }
    }

    @Test func placeholdersAreSquarePNGsOfTheColourWithTheIdDrawnInAContrastingColour() async throws {
        try await withDemoServer { server in
            let base = server.baseURL.absoluteString
            let (body, response) = try await Self.get(URL(string: base + "/placeholder/150/92c952/1")!)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/png")
            let decoded = try ImageDecoder.decode(body)
            #expect(decoded.format == .png)
            #expect(decoded.bitmap.width == 150 && decoded.bitmap.height == 150)
            let corner = decoded.bitmap[0, 0]
            #expect([corner.r, corner.g, corner.b] == [0x92, 0xC9, 0x52])
            // The "1" glyph's stem runs down the middle: black on this light green.
            let middle = decoded.bitmap[75, 75]
            #expect([middle.r, middle.g, middle.b] == [0, 0, 0])
            let dark = try ImageDecoder.decode(try await Self.get(URL(string: base + "/placeholder/60/000080/7")!).body)
            #expect(dark.bitmap.width == 60)
            let (_, bad) = try await Self.get(URL(string: base + "/placeholder/150/nothex")!)
            #expect(bad.statusCode == 404)
        }
    }

    @Test func theSameSeedGivesTheSameFaultsAndBothKindsOccur() async throws {
        let paths = (1...24).map { "/placeholder/20/808080/\($0)" }
        func outcomes() async throws -> [String] {
            try await withDemoServer(.init(failRate: 0.5, seed: 42)) { server in
                var results: [String] = []
                for path in paths {
                    do {
                        let (body, response) = try await Self.get(URL(string: server.baseURL.absoluteString + path)!)
                        results.append(response.statusCode == 200 && body.count > 60 ? "ok" : "\(response.statusCode)")
                    } catch {
                        results.append("reset")
                    }
                }
                return results
            }
        }
        let first = try await outcomes()
        let second = try await outcomes()
        #expect(first == second)
        #expect(first.contains("ok") && first.contains("500") && first.contains("reset"), "\(first)")
    }

    @Test func faultPlanDrawsDelaysInsideTheRangeRepeatably() {
        let plan = FaultPlan(latency: .milliseconds(100), jitter: .milliseconds(50), failRate: 0, seed: 3)
        for attempt in 1...50 {
            let decision = plan.decide(key: "/a?x=\(attempt)", attempt: attempt)
            #expect(decision.delay >= .milliseconds(100) && decision.delay <= .milliseconds(150))
            #expect(decision.fault == .none)
            #expect(plan.decide(key: "/a?x=\(attempt)", attempt: attempt) == decision)
        }
    }

    @Test func aTakenPortIsAnErrorThatSaysWhatToDo() async throws {
        try await withDemoServer { first in
            do {
                let second = try await DemoServer.start(dataDirectory: demoData,
                                                        configuration: .init(port: first.port))
                await second.stop()
                Issue.record("a second server started on the same port")
            } catch {
                #expect("\(error)".contains("cannot listen on 127.0.0.1:\(first.port)"))
                #expect("\(error)".contains("pick another --port, or 0 for any free one"))
            }
        }
    }
}

@Suite struct PNGEncoderTests {
    @Test func aTwoColourImageDecodesToTheSamePixels() throws {
        let palette = [PNGEncoder.Color(r: 10, g: 20, b: 30), PNGEncoder.Color(r: 250, g: 240, b: 230)]
        let indices: [UInt8] = (0..<(13 * 7)).map { (i: Int) -> UInt8 in UInt8((i * 7 + i / 13) % 2) }
        let png = try PNGEncoder.indexed(width: 13, height: 7, palette: palette, indices: indices)
        let decoded = try ImageDecoder.decode(png)
        for y in 0..<7 {
            for x in 0..<13 {
                let pixel = decoded.bitmap[x, y], expected = palette[Int(indices[y * 13 + x])]
                #expect([pixel.r, pixel.g, pixel.b] == [expected.r, expected.g, expected.b])
            }
        }
    }

    @Test func fiveColoursUseFourBitsAndLargeImagesSpanSeveralStoredBlocks() throws {
        let palette = (0..<5).map { PNGEncoder.Color(r: UInt8($0 * 50), g: 0, b: 0) }
        let side = 700 // 700 rows of 351 bytes: more than one 64 KB stored block
        let indices: [UInt8] = (0..<(side * side)).map { (i: Int) -> UInt8 in UInt8(i % 5) }
        let decoded = try ImageDecoder.decode(try PNGEncoder.indexed(width: side, height: side, palette: palette,
                                                                      indices: indices))
        #expect(decoded.bitmap[699, 699].r == UInt8((side * side - 1) % 5 * 50))
        #expect(decoded.bitmap[3, 0].r == 150)
    }

    @Test func badInputIsAnErrorNotACrash() {
        #expect(throws: PNGEncoder.Error.badPalette(count: 0)) {
            try PNGEncoder.indexed(width: 1, height: 1, palette: [], indices: [0])
        }
        #expect(throws: PNGEncoder.Error.pixelCountMismatch(expected: 4, got: 3)) {
            try PNGEncoder.indexed(width: 2, height: 2, palette: [.init(r: 0, g: 0, b: 0)], indices: [0, 0, 0])
        }
        #expect(throws: PNGEncoder.Error.indexOutOfPalette(index: 1, paletteCount: 1)) {
            try PNGEncoder.indexed(width: 1, height: 1, palette: [.init(r: 0, g: 0, b: 0)], indices: [1])
        }
    }
}
