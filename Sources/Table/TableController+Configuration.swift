import Cells

extension TableController {
    /// What the table is set up with: the thumbnail size, the theme, the slots kept beyond the screen, low-data mode,
    /// prefetching, the layout, the clocks and the list's ceilings.
    public struct Configuration: Sendable {
        /// The thumbnails' size before zooming; nil: sized to the screen (`ThumbnailSizing.automatic`).
        public var thumbnail: CellSize?
        public var theme: Theme
        /// Extra slots beyond the rows on screen.
        public var slotMargin: Int
        /// Use each item's small image everywhere, the detail pane included.
        public var lowData: Bool
        /// Warm the thumbnails of the next screen in the scroll direction and of the previous one.
        public var prefetch: Bool
        /// The list, the compact list or the grid at the start (`v`, `c` switch).
        public var layout: LayoutMode
        /// How slots guard against late results: `.safe`; `.naive` only for the naive side of `demo --compare`.
        public var slotBinding: SlotBindingPolicy
        /// Rows a filter may read without a match before paging stops (`ListState.filterReadLimit`).
        public var filterReadLimit: Int
        /// The clock the scroll's pace is measured on, for the prefetch (tests bring their own).
        public var clock: @Sendable () -> ContinuousClock.Instant
        /// The clock the pace of paging is read on (`PagePace`; tests bring their own).
        public var pagingClock: @Sendable () -> ContinuousClock.Instant
        /// The most rows, and text bytes, a list holds (`ListState.rowCeiling`, `textCeiling`; tests lower them).
        public var listCeilings: (rows: Int, textBytes: Int)
        /// The help's lines (`?`): the app's key table gives them (`KeyTable.helpLines`).
        public var helpLines: [HelpLine]
        /// Set when the table is a picker: Enter chooses (the app's keys do that), items can be marked, and the
        /// status line and header say so.
        public var picking: Picking?
        public init(thumbnail: CellSize? = CellSize(columns: 12, rows: 5), theme: Theme = .color,
                    slotMargin: Int = 4, lowData: Bool = false, prefetch: Bool = true, layout: LayoutMode = .list,
                    slotBinding: SlotBindingPolicy = .safe, filterReadLimit: Int = ListState.defaultFilterReadLimit,
                    clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
                    pagingClock: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
                    listCeilings: (rows: Int, textBytes: Int) = (ListState.rowCeiling, ListState.textCeiling),
                    helpLines: [HelpLine] = [], picking: Picking? = nil) {
            self.helpLines = helpLines
            self.picking = picking
            self.clock = clock
            self.pagingClock = pagingClock
            self.listCeilings = listCeilings
            self.filterReadLimit = filterReadLimit
            self.layout = layout
            self.slotBinding = slotBinding
            self.thumbnail = thumbnail
            self.theme = theme
            self.slotMargin = slotMargin
            self.lowData = lowData
            self.prefetch = prefetch
        }

        /// The thumbnails' sizing rule this configuration starts with.
        var sizing: ThumbnailSizing {
            ThumbnailSizing(thumbnail.map { .fixed($0) } ?? .automatic)
        }
    }
}
