import Foundation
import Pipeline
import Testing

@Suite struct LoadErrorTests {
    let url = URL(string: "http://127.0.0.1:8080/a.png")!

    @Test func retryableFailuresAreConnectionTimeoutsAnd408And429And5xx() {
        #expect(LoadError.connection("reset", url: url).isRetryable)
        #expect(LoadError.timedOut(after: .seconds(15), url: url).isRetryable)
        for status in [408, 429, 500, 502, 503, 599] {
            #expect(LoadError.httpStatus(status, url: url, retryAfter: nil).isRetryable, "\(status)")
        }
        for status in [400, 401, 403, 404, 410] {
            #expect(!LoadError.httpStatus(status, url: url, retryAfter: nil).isRetryable, "\(status)")
        }
        #expect(!LoadError.tooLarge(limit: 20 << 20, url: url).isRetryable)
        #expect(!LoadError.tooManyRedirects(limit: 5, url: url).isRetryable)
    }

    @Test func messagesNameTheURLAndTheLimit() {
        #expect(LoadError.tooLarge(limit: 20 << 20, url: url).description
            == "http://127.0.0.1:8080/a.png is larger than the 20 MB limit; the download was stopped")
        #expect(LoadError.timedOut(after: .milliseconds(1500), url: url).description
            == "no answer from 127.0.0.1 within 1.5 s")
        #expect(LoadError.httpStatus(404, url: url, retryAfter: nil).description.hasPrefix("HTTP 404 "))
    }
}
