import Cells
import Foundation
import Items
import Synchronization
import Table
import TestSupport
import Testing

/// Composing a frame reads state and writes cells: it starts no load, no prefetch and no page. `update()` does that,
/// run by the app before it composes.
@MainActor
@Suite struct PureFrameTests {
    /// A loader that records every call made while a frame is being composed, and otherwise passes calls on.
    final class WatchedLoader: ThumbnailLoading, Sendable {
        let base = FakeThumbnailLoader()
        let composing = Mutex(false)
        let callsWhileComposing = Mutex<[String]>([])

        private func note(_ call: String) {
            if composing.withLock({ $0 }) { callsWhileComposing.withLock { $0.append(call) } }
        }

        func thumbnail(_ url: URL, size: CellSize) -> ThumbnailLoad {
            note("thumbnail \(url.lastPathComponent)")
            let load = base.thumbnail(url, size: size)
            return .pending {
                self.note("load \(url.lastPathComponent)")
                return try await load.value()
            }
        }
        func prefetch(_ urls: [URL], size: CellSize) {
            note("prefetch \(urls.count)")
            base.prefetch(urls, size: size)
        }
        func removeFromCache(_ url: URL) {
            note("removeFromCache")
            base.removeFromCache(url)
        }
        func warm(_ url: URL, size: CellSize) async throws {
            note("warm")
            try await base.warm(url, size: size)
        }
    }

    @Test func composingAFrameCallsNoLoaderAndAsksForNoPage() async {
        let source = FakeItemSource(count: 200, pageSize: 20)
        let loader = WatchedLoader()
        let table = TableController(source: source, loader: loader,
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3)))
        let waiter = ChangeWaiter(table)
        table.resize(columns: 80, rows: 24)
        table.start()
        await waiter.until { table.items.count == 20 }
        table.update()
        // Every load update() started has run (the fake finishes at once), so none is left to start late.
        #expect(await waiter.until { !loader.base.started.isEmpty && !table.isAnimating })
        let startedBefore = loader.base.started.count
        // Scroll to the end of what is loaded and compose frames without updating: nothing may start.
        loader.composing.withLock { $0 = true }
        for _ in 0..<5 {
            table.move(by: 7)
            _ = table.frame()
        }
        loader.composing.withLock { $0 = false }
        #expect(loader.callsWhileComposing.withLock { $0 } == [])
        #expect(loader.base.started.count == startedBefore)
        #expect(source.requests == [1], "no page was asked for while composing")
        // The app's next turn updates: the rows now on screen load, and the next page is asked for.
        table.update()
        #expect(await waiter.until { loader.base.started.count > startedBefore && source.requests == [1, 2] })
    }
}
