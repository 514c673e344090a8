/// Counts that prove slot reuse is correct: slots reused, loads the slots started and cancelled, late results
/// dropped, and paints into the wrong row (which must stay 0).
///
/// These count the slots' own loads; the `requests_*` counters users see are the pipeline's.
@MainActor
public final class SlotCounters {
    /// Slots taken from one row for another.
    public internal(set) var slotReuses = 0
    /// Thumbnail loads a slot started (a picture ready in memory starts none).
    public internal(set) var loadsStarted = 0
    /// Loads cancelled because their slot was freed or bound to another row before they finished.
    public internal(set) var loadsCancelled = 0
    /// Results that arrived for a binding the slot no longer had, and were not painted.
    public internal(set) var staleResultsDropped = 0
    /// Paints into a slot bound to another row than the one that asked, and pictures in pixels on screen where the
    /// frame wants another (`TableController.countWrongPaints`): must stay 0.
    public internal(set) var wrongPaints = 0

    public init() {}

    /// The counts at one moment, with the number of slots: what the overlay and the stats file show.
    public struct Snapshot: Codable, Sendable, Equatable {
        public var slots: Int
        public var slotReuses: Int
        public var staleResultsDropped: Int
        public var wrongPaints: Int
        public var loadsStarted: Int
        public var loadsCancelled: Int

        public init(slots: Int, slotReuses: Int, staleResultsDropped: Int, wrongPaints: Int, loadsStarted: Int,
                    loadsCancelled: Int) {
            self.slots = slots
            self.slotReuses = slotReuses
            self.staleResultsDropped = staleResultsDropped
            self.wrongPaints = wrongPaints
            self.loadsStarted = loadsStarted
            self.loadsCancelled = loadsCancelled
        }

        /// The counts the reuse overlay and the stats file show, by the names they show them under.
        public var named: [(name: String, value: Int)] {
            [("slots", slots), ("slot_reuses", slotReuses), ("loads_started", loadsStarted),
             ("loads_cancelled", loadsCancelled), ("stale_results_dropped", staleResultsDropped),
             ("wrong_paints", wrongPaints)]
        }
    }

    /// The counts now, for a pool of `slots` slots.
    public func snapshot(slots: Int) -> Snapshot {
        Snapshot(slots: slots, slotReuses: slotReuses, staleResultsDropped: staleResultsDropped,
                 wrongPaints: wrongPaints, loadsStarted: loadsStarted, loadsCancelled: loadsCancelled)
    }
}
