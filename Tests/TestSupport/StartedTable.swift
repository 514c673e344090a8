import Cells
import Items
import Table

extension ChangeWaiter {
    /// A table over `source` with 8x3 thumbnails (or a grid) on a `columns`x`rows` screen, started, once its first page
    /// has answered; with the waiter that follows it (and the loader's events). Its scroll's pace is measured on
    /// `clock` when given.
    @MainActor
    public static func startedTable(_ source: any ItemSource = FakeItemSource(count: 50),
                                    loader: FakeThumbnailLoader = FakeThumbnailLoader(), columns: Int = 80,
                                    rows: Int = 24, layout: LayoutMode = .list,
                                    clock: ManualClock? = nil,
                                    helpLines: [HelpLine] = []) async -> (TableController, ChangeWaiter) {
        let read = ManualClock.read(clock)
        let table = TableController(source: source, loader: loader,
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3), layout: layout,
                                                         clock: read, helpLines: helpLines))
        let waiter = ChangeWaiter(table)
        waiter.observe(loader)
        table.resize(columns: columns, rows: rows)
        table.start()
        await waiter.until { table.listStatus != .loading }
        return (table, waiter)
    }
}
