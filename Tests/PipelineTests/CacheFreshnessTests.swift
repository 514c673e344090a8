import Foundation
import HTTP
@testable import Pipeline
import Testing

/// What response headers say about reusing bytes (RFC 9111 §4.2), and which validators are kept: pure rules.
@Suite struct CacheFreshnessTests {
    let now = HTTPDate.parse("Wed, 21 Oct 2015 07:28:00 GMT")!

    func freshness(_ headers: [String: String], previous: CacheFreshness? = nil) -> CacheFreshness {
        CacheFreshness(header: { name in headers.first { $0.key.lowercased() == name }?.value }, receivedAt: now,
                       previous: previous)
    }

    func lifetime(_ freshness: CacheFreshness) -> Double { freshness.freshUntil.timeIntervalSince(now) }

    @Test func maxAgeSetsTheLifetime() {
        let f = freshness(["Cache-Control": "public, max-age=600"])
        #expect(lifetime(f) == 600 && f.lifetime == 600)
        #expect(f.isFresh(at: now.addingTimeInterval(599)) && !f.isFresh(at: now.addingTimeInterval(600)))
    }

    @Test func maxAgeBeatsExpires() {
        #expect(lifetime(freshness(["Cache-Control": "max-age=60", "Expires": "Thu, 22 Oct 2015 07:28:00 GMT"])) == 60)
    }

    @Test func expiresCountsFromTheServersDate() {
        // Expires − Date is the lifetime, whatever the two clocks say.
        let f = freshness(["Date": "Wed, 21 Oct 2015 07:28:00 GMT", "Expires": "Wed, 21 Oct 2015 08:28:00 GMT"])
        #expect(lifetime(f) == 3600)
    }

    @Test func anExpiresThatIsNotADateHasExpired() {
        #expect(!freshness(["Expires": "0"]).isFresh(at: now))
        #expect(!freshness(["Expires": "-1"]).isFresh(at: now))
    }

    @Test func theAgeHeaderShortensTheLifetime() {
        #expect(lifetime(freshness(["Cache-Control": "max-age=600", "Age": "100"])) == 500)
        #expect(lifetime(freshness(["Cache-Control": "max-age=600", "Age": "9000"])) == 0)
    }

    @Test func aBadMaxAgeIsStale() {
        #expect(!freshness(["Cache-Control": "max-age=soon"]).isFresh(at: now))
        #expect(!freshness(["Cache-Control": "max-age=-5"]).isFresh(at: now))
        #expect(!freshness(["Cache-Control": "max-age=\"1e9\""]).isFresh(at: now))
    }

    @Test func aHugeMaxAgeIsCapped() {
        #expect(lifetime(freshness(["Cache-Control": "max-age=99999999999999999999999"])) == Double(Int32.max))
    }

    @Test func noStoreAndNoCacheAreSeen() {
        let f = freshness(["Cache-Control": "No-Store"])
        #expect(f.noStore && !f.noCache)
        let g = freshness(["Cache-Control": "max-age=3600, no-cache"])
        #expect(g.noCache && !g.isFresh(at: now))
        #expect(freshness(["Cache-Control": "no-cache=\"Set-Cookie\""]).noCache)
    }

    @Test func withoutFreshnessTheDefaultLifetimeApplies() {
        #expect(lifetime(freshness([:])) == CacheFreshness.defaultLifetime)
        #expect(freshness([:]).lifetime == nil)
        // Modified 10 hours before: a tenth, one hour.
        #expect(lifetime(freshness(["Last-Modified": "Tue, 20 Oct 2015 21:28:00 GMT"])) == 3600)
        // Modified years before: capped at a day.
        let old = freshness(["Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"])
        #expect(lifetime(old) == CacheFreshness.defaultLifetime)
    }

    @Test func a304WithoutFreshnessRenewsThePreviousLifetime() {
        let stored = freshness(["Cache-Control": "max-age=600"])
        let renewed = freshness(["ETag": "\"x\""], previous: stored)
        #expect(lifetime(renewed) == 600)
        let noCache = freshness(["Cache-Control": "no-cache"])
        #expect(freshness([:], previous: noCache).noCache, "no-cache stays")
        #expect(lifetime(freshness(["Cache-Control": "max-age=5"], previous: stored)) == 5, "a new one wins")
    }

    @Test func anOverlongCacheControlIsNotTrusted() {
        let f = freshness(["Cache-Control": "max-age=600, " + String(repeating: "x", count: 5000)])
        #expect(!f.isFresh(at: now))
    }

    @Test func freshnessRoundTripsThroughJSON() throws {
        let f = freshness(["Cache-Control": "max-age=600, no-cache"])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        #expect(try decoder.decode(CacheFreshness.self, from: encoder.encode(f)) == f)
    }

    // MARK: Validators

    @Test func etagsAreKeptOnlyWhenWellFormed() {
        #expect(DataLoader.etag("\"abc\"") == "\"abc\"")
        #expect(DataLoader.etag("W/\"abc\"") == "W/\"abc\"")
        #expect(DataLoader.etag(" \"abc\" ") == "\"abc\"")
        #expect(DataLoader.etag("abc123") == "abc123", "a bare token, as some servers send")
        #expect(DataLoader.etag("\"a\"b\"") == nil)
        #expect(DataLoader.etag("\"a b\"") == nil)
        #expect(DataLoader.etag("\"a\u{1B}[2J\"") == nil, "no control characters")
        #expect(DataLoader.etag("\"é\"") == nil)
        #expect(DataLoader.etag("\"" + String(repeating: "a", count: 300) + "\"") == nil)
        #expect(DataLoader.etag("a,b") == nil)
        #expect(DataLoader.etag("") == nil && DataLoader.etag(nil) == nil)
    }

    @Test func lastModifiedIsKeptOnlyWhenItIsADate() {
        #expect(DataLoader.lastModified("Wed, 21 Oct 2015 07:28:00 GMT") == "Wed, 21 Oct 2015 07:28:00 GMT")
        #expect(DataLoader.lastModified("yesterday") == nil)
        #expect(DataLoader.lastModified("Wed, 21 Oct 2015 07:28:00 GMT\r\nX: y") == nil)
    }
}
