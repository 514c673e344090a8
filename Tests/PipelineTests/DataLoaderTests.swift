import Foundation
import LocalFiles
@testable import Pipeline
import Synchronization
import Testing
import TestSupport

/// The live loader against a real server on 127.0.0.1: what it returns, where it stops, and that cancelling the
/// calling task closes the connection (seen from the server's side).
@Suite struct DataLoaderTests {
    let loader = DataLoader()
    let image = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }

    // MARK: Answers

    @Test func okReturnsTheBytesAndValidatorsAndReportsEveryByte() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/a.png", .ok(image, contentType: "image/png", headers: [
                "ETag": "\"v1\"", "Last-Modified": "Wed, 21 Oct 2015 07:28:00 GMT",
            ]))
            let chunks = ReceivedChunks()

            let data = try await loader.load(server.url("/a.png"), limits: .default, received: chunks.record)

            #expect(data.bytes == image)
            #expect(data.contentType == "image/png")
            #expect(data.etag == "\"v1\"")
            #expect(data.lastModified == "Wed, 21 Oct 2015 07:28:00 GMT")
            #expect(chunks.total == image.count)
            #expect(server.requests(to: "/a.png").count == 1)
        }
    }

    @Test func aChunkedBodyIsReadToTheEnd() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/chunked.png", TestHTTPServer.Reply(body: image, chunked: true))
            let chunks = ReceivedChunks()

            let data = try await loader.load(server.url("/chunked.png"), limits: .default, received: chunks.record)

            #expect(data.bytes == image)
            #expect(chunks.total == image.count)
        }
    }

    @Test func notFoundIsAnHTTPStatusError() async throws {
        try await TestHTTPServer.with { server in
            let url = server.url("/missing.png")
            await #expect(throws: LoadError.httpStatus(404, url: url, retryAfter: nil)) {
                try await loader.load(url, limits: .default) { _ in }
            }
        }
    }

    @Test func serviceUnavailableCarriesItsRetryAfter() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/busy.png", .status(503, headers: ["Retry-After": "2"]))
            let url = server.url("/busy.png")
            await #expect(throws: LoadError.httpStatus(503, url: url, retryAfter: .seconds(2))) {
                try await loader.load(url, limits: .default) { _ in }
            }
        }
    }

    @Test func retryAfterIsDeltaSecondsOrAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_445_412_480) // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(DataLoader.retryAfter("120", now: now) == .seconds(120))
        #expect(DataLoader.retryAfter(" 0 ", now: now) == .seconds(0))
        #expect(DataLoader.retryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == .seconds(30))
        #expect(DataLoader.retryAfter("Wednesday, 21-Oct-15 07:29:00 GMT", now: now) == .seconds(60))
        #expect(DataLoader.retryAfter("Wed Oct 21 07:28:10 2015", now: now) == .seconds(10))
        #expect(DataLoader.retryAfter("Wed, 21 Oct 2015 07:00:00 GMT", now: now) == .zero, "a past date: no wait")
        #expect(DataLoader.retryAfter("soon", now: now) == nil)
        #expect(DataLoader.retryAfter("-5", now: now) == nil)
        #expect(DataLoader.retryAfter(nil, now: now) == nil)
    }

    // MARK: Limits

    @Test func aBodyOverTheLimitIsCutOffAtTheChunkThatPassesIt() async throws {
        try await TestHTTPServer.with { server in
            // Chunked: no Content-Length, so only counting the body can stop it.
            server.serve("/big.png", TestHTTPServer.Reply(body: image, chunked: true))
            let url = server.url("/big.png")
            let chunks = ReceivedChunks()

            await #expect(throws: LoadError.tooLarge(limit: 10_000, url: url)) {
                try await loader.load(url, limits: LoadLimits(maxBytes: 10_000), received: chunks.record)
            }

            let sizes = chunks.sizes
            #expect(sizes.dropLast().reduce(0, +) <= 10_000, "nothing is read after the chunk that passes the limit")
            #expect(sizes.reduce(0, +) > 10_000)
            #expect(sizes.reduce(0, +) < image.count)
        }
    }

    @Test func aContentLengthOverTheLimitIsRefusedBeforeTheBody() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/big.png", .ok(image))
            let url = server.url("/big.png")
            let chunks = ReceivedChunks()

            await #expect(throws: LoadError.tooLarge(limit: 10_000, url: url)) {
                try await loader.load(url, limits: LoadLimits(maxBytes: 10_000), received: chunks.record)
            }
            #expect(chunks.total == 0)
        }
    }

    @Test func fiveRedirectsAreFollowed() async throws {
        try await TestHTTPServer.with { server in
            Self.serveRedirectChain(on: server, prefix: "/five", hops: 5, body: image)

            let data = try await loader.load(server.url("/five/0"), limits: .default) { _ in }

            #expect(data.bytes == image)
            #expect(server.requests.map(\.path) == (0...5).map { "/five/\($0)" })
        }
    }

    @Test func aSixthRedirectIsNotFollowed() async throws {
        try await TestHTTPServer.with { server in
            Self.serveRedirectChain(on: server, prefix: "/six", hops: 6, body: image)
            let url = server.url("/six/0")

            await #expect(throws: LoadError.tooManyRedirects(limit: 5, url: url)) {
                try await loader.load(url, limits: .default) { _ in }
            }
            #expect(server.requests(to: "/six/6").isEmpty)
        }
    }

    @Test func aServerSlowerThanTheTimeoutTimesOut() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/slow.png", .ok(image).delayed(by: .seconds(30)))
            let url = server.url("/slow.png")

            let error = await #expect(throws: LoadError.self) {
                try await loader.load(url, limits: LoadLimits(timeout: .milliseconds(300))) { _ in }
            }
            #expect(error == .timedOut(after: .milliseconds(300), stage: .waitingForResponse, url: url))
            #expect(error?.description == "no answer from 127.0.0.1:\(server.port) within 0.3 s")
        }
    }

    @Test func theTimeoutBoundsTheWholeRequestNotTheGapsBetweenChunks() async throws {
        try await TestHTTPServer.with { server in
            // A chunk every 50 ms: never idle for long, but 25 s in all.
            server.serve("/trickle.png", .ok(image).paced(chunkSize: 200, interval: .milliseconds(50)))
            let url = server.url("/trickle.png")
            let chunks = ReceivedChunks()

            // 2 s: long enough for the first chunks to arrive even on a busy machine, far shorter than the body.
            let error = await #expect(throws: LoadError.self) {
                try await loader.load(url, limits: LoadLimits(timeout: .seconds(2)), received: chunks.record)
            }
            #expect(chunks.total > 0)
            #expect(error == .timedOut(after: .seconds(2), stage: .body(received: chunks.total, expected: image.count),
                                       url: url))
            #expect(error?.description == "\(url.absoluteString) was still arriving after 2 s; the download was "
                + "stopped after \(chunks.total) of \(image.count) bytes")
            #expect(await server.waitForClientClose(of: "/trickle.png"))
        }
    }

    // MARK: Connection failures

    @Test func aRefusedConnectionIsAConnectionError() async throws {
        // A port that was just free: the server that had it is stopped.
        let server = try await TestHTTPServer.start()
        let url = server.url("/a.png")
        await server.stop()

        let error = await #expect(throws: LoadError.self) {
            try await loader.load(url, limits: .default) { _ in }
        }
        guard case .connection(let reason, let failedURL) = error else {
            Issue.record("expected a connection error, got \(String(describing: error))")
            return
        }
        #expect(failedURL == url)
        #expect(reason == "connection refused")
    }

    @Test func aConnectionDroppedMidBodyIsABrokenConnectionNotACannotConnect() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/cut.png", .ok(image).dropped(after: 5_000))
            let url = server.url("/cut.png")

            let error = await #expect(throws: LoadError.self) {
                try await loader.load(url, limits: .default) { _ in }
            }
            guard case .connectionBroke(.body(5_000, image.count), _, url) = error else {
                Issue.record("expected a broken connection after 5000 bytes, got \(String(describing: error))")
                return
            }
            let message = error?.description ?? ""
            #expect(message.hasPrefix("127.0.0.1:\(server.port): the connection broke before the whole response "
                + "arrived, after 5000 of \(image.count) bytes"), "\(message)")
            #expect(!message.contains("cannot connect"))
            #expect(error?.isRetryable == true)
            #expect(server.requests(to: "/cut.png").map(\.outcome) == [.droppedByServer])
        }
    }

    // MARK: Hostile servers

    @Test func aServerThatNeverAnswersIsGivenUpAfterTheStallTimeout() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/never.png", .never)
            let url = server.url("/never.png")
            let limits = LoadLimits(timeout: .seconds(120), stallTimeout: .milliseconds(300))

            let error = await #expect(throws: LoadError.self) { try await loader.load(url, limits: limits) { _ in } }

            #expect(error == .stalled(after: .milliseconds(300), stage: .waitingForResponse, url: url))
            #expect(error?.description == "no answer from 127.0.0.1:\(server.port) for 0.3 s; the request was given up")
            #expect(error?.isRetryable == true)
        }
    }

    @Test func aBodyThatStallsSaysAfterHowManyBytesNotNoAnswer() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/half.png", .ok(image).stalled(after: 30_000))
            let url = server.url("/half.png")
            // 2 s: a busy machine sends the headers and the first bytes well within it.
            let limits = LoadLimits(timeout: .seconds(120), stallTimeout: .seconds(2))
            let chunks = ReceivedChunks()

            let error = await #expect(throws: LoadError.self) {
                try await loader.load(url, limits: limits, received: chunks.record)
            }

            #expect(error == .stalled(after: .seconds(2), stage: .body(received: 30_000, expected: image.count),
                                      url: url))
            #expect(error?.description == "the download of \(url.absoluteString) stalled after 30000 of "
                + "\(image.count) bytes: nothing more for 2 s")
            #expect(chunks.total == 30_000)
        }
    }

    @Test func aRedirectToAFileIsRefusedNotACannotConnect() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/img.png", .redirect(to: "file:///etc/passwd"))
            let url = server.url("/img.png")

            let error = await #expect(throws: LoadError.self) { try await loader.load(url, limits: .default) { _ in } }

            #expect(error == .redirectRefused(location: "file:///etc/passwd", reason: .notHTTP, url: url))
            #expect(error?.description == "\(url.absoluteString) redirected to file:///etc/passwd, which is not http "
                + "or https; it was not followed")
            #expect(error?.isRetryable == false)
        }
    }

    @Test func anUnknownSchemeIsRefused() async {
        let url = URL(string: "ftp://example.com/a.png")!
        await #expect(throws: LoadError.unsupportedScheme(url: url)) {
            try await loader.load(url, limits: .default) { _ in }
        }
    }

    // MARK: Cancellation

    @Test func cancellingTheTaskMidBodyClosesTheConnection() async throws {
        try await TestHTTPServer.with { server in
            // 100 kB at 1 kB a second: 100 s, longer than any machine takes to cancel after the first chunk (at 2 kB
            // every 100 ms, 5 s, a loaded CI machine once got the whole body before the cancel); the server still
            // sees the close within a second, at its next write.
            server.serve("/slow.png", .ok(image).paced(chunkSize: 1_000, interval: .seconds(1)))
            let chunks = ReceivedChunks()
            let loader = loader
            let url = server.url("/slow.png")
            let load = Task { try await loader.load(url, limits: .default, received: chunks.record) }

            #expect(await chunks.wait { $0 > 0 }, "the body started arriving")
            load.cancel()

            await #expect(throws: CancellationError.self) { try await load.value }
            #expect(await server.waitForClientClose(of: "/slow.png"), "the server saw the client close the connection")
            #expect(chunks.total < image.count)
        }
    }

    @Test func aTaskCancelledBeforeItStartsSendsNoRequest() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/a.png", .ok(image))
            let loader = loader
            let url = server.url("/a.png")
            let load = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await loader.load(url, limits: .default) { _ in }
            }
            await #expect(throws: CancellationError.self) { try await load.value }
            #expect(server.requests.isEmpty)
        }
    }

    @Test func concurrentLoadsEachGetTheirOwnBytes() async throws {
        try await TestHTTPServer.with { server in
            for i in 0..<12 { server.serve("/\(i).png", .ok(Array(repeating: UInt8(i), count: 10_000 + i))) }
            let loader = loader
            let urls = (0..<12).map { server.url("/\($0).png") }

            let results = try await withThrowingTaskGroup(of: (Int, LoadedData).self) { group in
                for (i, url) in urls.enumerated() {
                    group.addTask { (i, try await loader.load(url, limits: .default) { _ in }) }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }

            for i in 0..<12 { #expect(results[i]?.bytes == Array(repeating: UInt8(i), count: 10_000 + i)) }
        }
    }

    // MARK: Files

    /// What a folder's rows load through: local files allowed.
    let localLoader = DataLoader(localFiles: .allowed)

    @Test func aFileURLIsRefusedUnlessTheSourceIsLocal() async throws {
        let file = try TemporaryFile(bytes: image)
        await #expect(throws: LoadError.localFileRefused(url: file.url)) {
            try await loader.load(file.url, limits: .default) { _ in }
        }
        #expect(try await localLoader.load(file.url, limits: .default) { _ in }.bytes == image)
    }

    @Test func aFIFOIsRefusedWithoutBlocking() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString).jpg").path
        #expect(mkfifo(path, 0o644) == 0)
        defer { unlink(path) }
        await #expect(throws: LoadError.unreadableFile(path: path, reason: "not a regular file (a FIFO (named pipe))")) {
            try await localLoader.load(URL(fileURLWithPath: path), limits: .default) { _ in }
        }
    }

    @Test func aFileIsReadWhole() async throws {
        let file = try TemporaryFile(bytes: image)
        let chunks = ReceivedChunks()

        let data = try await localLoader.load(file.url, limits: .default, received: chunks.record)

        #expect(data.bytes == image)
        #expect(chunks.total == image.count)
    }

    @Test func aMissingFileIsUnreadable() async throws {
        let url = URL(fileURLWithPath: "/nonexistent/thumbtable/\(UUID().uuidString).png")
        await #expect(throws: LoadError.unreadableFile(path: url.path, reason: "no such file")) {
            try await localLoader.load(url, limits: .default) { _ in }
        }
    }

    @Test func aFolderIsUnreadable() async throws {
        let url = FileManager.default.temporaryDirectory
        let shown = try #require(LocalPath(fileURL: url)).description
        await #expect(throws: LoadError.unreadableFile(path: shown, reason: "not a regular file (a folder)")) {
            try await localLoader.load(url, limits: .default) { _ in }
        }
    }

    @Test func aFileOverTheLimitIsRefused() async throws {
        let file = try TemporaryFile(bytes: image)
        let chunks = ReceivedChunks()
        await #expect(throws: LoadError.tooLarge(limit: 1_000, url: file.url)) {
            try await localLoader.load(file.url, limits: LoadLimits(maxBytes: 1_000), received: chunks.record)
        }
        #expect(chunks.total == 0)
    }

    // MARK: Helpers

    /// `prefix/0` redirects to `prefix/1`, … up to `prefix/hops`, which answers with `body`.
    static func serveRedirectChain(on server: TestHTTPServer, prefix: String, hops: Int, body: [UInt8]) {
        for i in 0..<hops { server.serve("\(prefix)/\(i)", .redirect(to: "\(prefix)/\(i + 1)")) }
        server.serve("\(prefix)/\(hops)", .ok(body))
    }
}

/// The chunk sizes a loader reported, and a way to wait for them.
final class ReceivedChunks: Sendable {
    private struct Waiter {
        var id: Int
        var condition: @Sendable (Int) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
    }
    private struct State {
        var sizes: [Int] = []
        var waiters: [Waiter] = []
        var nextID = 0
    }
    private let state = Mutex(State())

    var sizes: [Int] { state.withLock { $0.sizes } }
    var total: Int { sizes.reduce(0, +) }

    /// Pass as the loader's `received`.
    var record: @Sendable (Int) -> Void {
        { [self] size in
            let woken = state.withLock { state -> [Waiter] in
                state.sizes.append(size)
                let total = state.sizes.reduce(0, +)
                var woken: [Waiter] = []
                state.waiters.removeAll { waiter in
                    guard waiter.condition(total) else { return false }
                    woken.append(waiter)
                    return true
                }
                return woken
            }
            for waiter in woken { waiter.continuation.resume(returning: true) }
        }
    }

    /// Waits until the total received satisfies `condition`: woken by each chunk, false after `timeout` (a safety
    /// net, not a measurement).
    func wait(timeout: Duration = .seconds(20), _ condition: @escaping @Sendable (Int) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            let id = state.withLock { state -> Int? in
                if condition(state.sizes.reduce(0, +)) { return nil }
                state.nextID += 1
                state.waiters.append(Waiter(id: state.nextID, condition: condition, continuation: continuation))
                return state.nextID
            }
            guard let id else { return continuation.resume(returning: true) }
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.expire(id)
            }
        }
    }

    private func expire(_ id: Int) {
        let expired = state.withLock { state -> Waiter? in
            guard let i = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: i)
        }
        expired?.continuation.resume(returning: false)
    }
}

/// A file in the temporary folder, deleted when this goes away.
final class TemporaryFile {
    let url: URL

    init(bytes: [UInt8]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("thumbtable-\(UUID().uuidString).png")
        try Data(bytes).write(to: url)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The test server's own promises, seen through the live loader.
@Suite struct TestHTTPServerTests {
    let loader = DataLoader()

    @Test func repliesInTurnThenTheLastOneAgain() async throws {
        try await TestHTTPServer.with { server in
            server.serve("/flaky.png", replies: [.status(503), .text("ok")])
            let url = server.url("/flaky.png")

            await #expect(throws: LoadError.httpStatus(503, url: url, retryAfter: nil)) {
                try await loader.load(url, limits: .default) { _ in }
            }
            let second = try await loader.load(url, limits: .default) { _ in }
            let third = try await loader.load(url, limits: .default) { _ in }
            #expect(second.bytes == Array("ok".utf8))
            #expect(third.bytes == Array("ok".utf8))
            #expect(server.requests(to: "/flaky.png").map(\.attempt) == [1, 2, 3])
        }
    }

    @Test func aDirectoryIsServedWithContentTypesAndNothingOutsideIt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("served-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"),
                                                withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data([1, 2, 3]).write(to: directory.appendingPathComponent("sub/a.png"))
        try Data("{}".utf8).write(to: directory.appendingPathComponent("catalog.json"))

        try await TestHTTPServer.with { server in
            server.serveDirectory(directory, at: "/files")

            let png = try await loader.load(server.url("/files/sub/a.png"), limits: .default) { _ in }
            #expect(png.bytes == [1, 2, 3])
            #expect(png.contentType == "image/png")
            let json = try await loader.load(server.url("/files/catalog.json"), limits: .default) { _ in }
            #expect(json.contentType == "application/json")
            for missing in ["/files/none.png", "/files/sub", "/files/../etc/passwd", "/elsewhere/a.png"] {
                await #expect(throws: LoadError.self, "\(missing)") {
                    try await loader.load(server.url(missing), limits: .default) { _ in }
                }
            }
        }
    }

    @Test func withLatencyEveryRequestIsStillAnswered() async throws {
        try await TestHTTPServer.with(latency: .milliseconds(1) ... .milliseconds(30), seed: 42) { server in
            for i in 0..<8 { server.serve("/\(i).png", .ok([UInt8(i)])) }
            let loader = loader
            let urls = (0..<8).map { server.url("/\($0).png") }

            try await withThrowingTaskGroup(of: Void.self) { group in
                for (i, url) in urls.enumerated() {
                    group.addTask {
                        let data = try await loader.load(url, limits: .default) { _ in }
                        #expect(data.bytes == [UInt8(i)])
                    }
                }
                try await group.waitForAll()
            }

            #expect(await server.waitForRequests(to: "/7.png"))
            #expect(server.requests.count == 8)
            #expect(await server.waitUntilIdle())
            #expect(server.requests.allSatisfy { $0.outcome == .completed })
        }
    }
}
