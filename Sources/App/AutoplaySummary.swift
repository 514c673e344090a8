import Pipeline
import Table

/// What `demo --autoplay` prints when it ends, for each side of `--compare` (or the one table): the counters that
/// show reuse at work and whether it was correct, and how many rows on screen show their own picture.
public struct AutoplaySummary: Sendable, Equatable {
    /// One table's counts at the end.
    public struct Side: Sendable, Equatable {
        public var name: String
        public var slots: SlotCounters.Snapshot
        public var pipeline: PipelineCounters.Snapshot
        /// Rows on screen whose picture was loaded or failed.
        public var rowsWithPicture: Int
        /// Of those, rows showing a picture loaded for another row (`RowSlot.paintedItem`).
        public var rowsShowingWrongPicture: Int

        /// Reads a table's counters and its rows on screen now, with its pipeline's counters.
        @MainActor
        public init(name: String, table: TableController, pipeline: PipelineCounters.Snapshot) {
            self.name = name
            slots = table.slotCounters
            self.pipeline = pipeline
            (rowsWithPicture, rowsShowingWrongPicture) = table.picturesOnScreen
        }

        /// The figures printed, in order, by the names the overlay and the stats file use.
        var figures: [(name: String, value: Int)] {
            [("wrong_paints", slots.wrongPaints),
             ("rows_showing_wrong_picture", rowsShowingWrongPicture), ("rows_with_picture", rowsWithPicture),
             ("slot_reuses", slots.slotReuses), ("loads_started", slots.loadsStarted),
             ("loads_cancelled", slots.loadsCancelled), ("stale_results_dropped", slots.staleResultsDropped),
             ("requests_started", pipeline.requestsStarted), ("requests_cancelled", pipeline.requestsCancelled),
             ("downloads_started", pipeline.downloadsStarted), ("downloads_cancelled", pipeline.downloadsCancelled),
             ("bytes_downloaded", pipeline.bytesDownloaded), ("bytes_discarded", pipeline.bytesDiscarded)]
        }
    }

    public var seed: UInt64
    public var steps: Int
    /// How it ended: played to the end (and whether the screen settled), or stopped by a key.
    public var ending: String
    public var sides: [Side]

    public init(seed: UInt64, steps: Int, ending: String, sides: [Side]) {
        self.seed = seed
        self.steps = steps
        self.ending = ending
        self.sides = sides
    }

    /// The summary as printed: a title line, then one line per counter with a column per side.
    public var text: String {
        var lines = ["autoplay, seed \(seed), \(steps) steps, \(ending)"]
        let nameWidth = sides.first?.figures.map(\.name.count).max() ?? 0
        let columnWidth = max(12, (sides.map(\.name.count).max() ?? 0) + 2)
        func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
            let room = String(repeating: " ", count: max(0, width - text.count))
            return left ? text + room : room + text
        }
        lines.append(pad("", nameWidth, left: true) + sides.map { pad($0.name, columnWidth) }.joined())
        for (i, figure) in (sides.first?.figures ?? []).enumerated() {
            lines.append(pad(figure.name, nameWidth, left: true)
                         + sides.map { pad(String($0.figures[i].value), columnWidth) }.joined())
        }
        if sides.count == 2 {
            // Both sides scrolled the same way over the same delays: what one downloaded beyond the other was spent
            // on pictures nobody was shown any more, or shown in the wrong row.
            let extra = sides[0].pipeline.bytesDownloaded - sides[1].pipeline.bytesDownloaded
            lines.append("\(sides[0].name) downloaded \(abs(extra)) bytes \(extra < 0 ? "fewer" : "more") than "
                         + "\(sides[1].name) for the same scroll")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
