import Foundation
import Pipeline
import Testing

@Suite struct LoadErrorTests {
    let url = URL(string: "http://127.0.0.1:8080/a.png")!

    @Test func retryableFailuresAreConnectionTimeoutsAnd408And429And5xx() {
        #expect(LoadError.connection("reset", url: url).isRetryable)
        #expect(LoadError.timedOut(after: .seconds(15), stage: .waitingForResponse, url: url).isRetryable)
        #expect(LoadError.stalled(after: .seconds(5), stage: .body(received: 10, expected: nil), url: url).isRetryable)
        #expect(LoadError.connectionBroke(stage: .body(received: 10, expected: 20), detail: "", url: url).isRetryable)
        for status in [408, 429, 500, 502, 503, 599] {
            #expect(LoadError.httpStatus(status, url: url, retryAfter: nil).isRetryable, "\(status)")
        }
        for status in [400, 401, 403, 404, 410] {
            #expect(!LoadError.httpStatus(status, url: url, retryAfter: nil).isRetryable, "\(status)")
        }
        #expect(!LoadError.tooLarge(limit: 20 << 20, url: url).isRetryable)
        #expect(!LoadError.tooManyRedirects(limit: 5, url: url).isRetryable)
        #expect(!LoadError.redirectRefused(location: "file:///etc/passwd", reason: .notHTTP, url: url).isRetryable)
        #expect(!LoadError.badResponse("garbled", url: url).isRetryable)
    }

    @Test func messagesNameTheURLAndTheLimit() {
        #expect(LoadError.tooLarge(limit: 20 << 20, url: url).description
            == "http://127.0.0.1:8080/a.png is larger than the 20 MB limit; the download was stopped")
        #expect(LoadError.timedOut(after: .milliseconds(1500), stage: .waitingForResponse, url: url).description
            == "no answer from 127.0.0.1:8080 within 1.5 s")
        #expect(LoadError.httpStatus(404, url: url, retryAfter: nil).description.hasPrefix("HTTP 404 "))
    }

    @Test func eachStageOfATimeoutOrStallSaysHowFarTheDownloadGot() {
        let cases: [(LoadError, String)] = [
            (.timedOut(after: .seconds(15), stage: .connecting, url: url),
             "cannot connect to 127.0.0.1:8080 within 15 s"),
            (.timedOut(after: .seconds(15), stage: .body(received: 100, expected: 400), url: url),
             "http://127.0.0.1:8080/a.png was still arriving after 15 s; the download was stopped after 100 of 400 "
                + "bytes"),
            (.stalled(after: .seconds(5), stage: .connecting, url: url),
             "cannot connect to 127.0.0.1:8080: no connection for 5 s"),
            (.stalled(after: .seconds(5), stage: .waitingForResponse, url: url),
             "no answer from 127.0.0.1:8080 for 5 s; the request was given up"),
            (.stalled(after: .seconds(5), stage: .body(received: 0, expected: nil), url: url),
             "the download of http://127.0.0.1:8080/a.png stalled after the response's headers, before any of its "
                + "body: nothing more for 5 s"),
            (.stalled(after: .seconds(5), stage: .body(received: 70, expected: nil), url: url),
             "the download of http://127.0.0.1:8080/a.png stalled after 70 bytes: nothing more for 5 s"),
            (.connectionBroke(stage: .waitingForResponse, detail: "", url: url),
             "127.0.0.1:8080: the server closed the connection without answering"),
            (.redirectRefused(location: "http://[::1", reason: .malformed, url: url),
             "http://127.0.0.1:8080/a.png redirected to http://[::1, which is not a valid URL"),
        ]
        for (error, message) in cases { #expect(error.description == message) }
    }
}
