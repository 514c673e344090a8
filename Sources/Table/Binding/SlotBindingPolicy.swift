/// How a row slot guards against late results when it is reused: ThumbTable's two safeguards, or none of them.
///
/// Every table uses `.safe`. `.naive` exists for one reason: `thumbtable demo --compare` shows the classic naive
/// table beside ThumbTable, on the same table, views and pool, so that the only difference a viewer sees is what the
/// two safeguards are for.
public enum SlotBindingPolicy: Sendable, Equatable {
    /// ThumbTable: reusing a slot cancels its load, and a result is painted only if it carries the binding generation
    /// the slot still has.
    case safe
    /// THE BUG ON PURPOSE, for `demo --compare` only: the classic naive table, which neither cancels a reused slot's
    /// load nor checks the generation, so a late result paints whatever row the slot holds now (counted as a
    /// `wrong_paint`) and every download started runs to its end. Never use it elsewhere.
    case naive

    /// Whether reusing (or freeing) a slot cancels the load under way.
    var cancelsOnReuse: Bool { self == .safe }
    /// Whether a result is dropped when the slot was bound anew since its load started.
    var checksGeneration: Bool { self == .safe }
}
