/// The overlay's counters sorted into the groups a newcomer asks about: correctness (`wrong_paints` first), reuse,
/// network and caches, each as short phrases ("requests 50 (12 cancelled, 2 failed)").
///
/// Counters come by their stats-file names; a name it does not know goes to "other" under that name, so a counter
/// added later is still shown.
struct OverlayCounterGroups: Equatable {
    /// One group: its name and its phrases, in order.
    struct Group: Equatable {
        var name: String
        var phrases: [String]
    }

    /// `wrong_paints`, shown on a line of its own; nil when the counters do not include it.
    var wrongPaints: Int?
    var groups: [Group]

    /// How each known counter is shown: its group, its words, whether it counts bytes, and the counter whose
    /// phrase it completes in brackets ("requests 50 (12 cancelled)"), if any.
    private struct Known {
        var group: String
        var name: String
        var words: String
        var bytes = false
        var under: String?
        /// Shown only once it counted something: counters most runs leave at 0, kept off a panel that would
        /// otherwise grow over the list.
        var quietAtZero = false
    }

    private static let known: [Known] = [
        Known(group: "correctness", name: "stale_results_dropped", words: "late results dropped"),
        Known(group: "reuse", name: "slots", words: "slots"),
        Known(group: "reuse", name: "slot_reuses", words: "reuses"),
        Known(group: "reuse", name: "loads_started", words: "loads"),
        Known(group: "reuse", name: "loads_cancelled", words: "cancelled", under: "loads_started"),
        Known(group: "network", name: "requests_started", words: "requests"),
        Known(group: "network", name: "requests_cancelled", words: "cancelled", under: "requests_started"),
        Known(group: "network", name: "requests_failed", words: "failed", under: "requests_started"),
        Known(group: "network", name: "requests_completed", words: "done", under: "requests_started"),
        Known(group: "network", name: "downloads_started", words: "downloads"),
        Known(group: "network", name: "downloads_cancelled", words: "cancelled", under: "downloads_started"),
        Known(group: "network", name: "downloads_preempted", words: "preempted", under: "downloads_started"),
        Known(group: "network", name: "max_downloads_in_flight", words: "in flight at most", under: "downloads_started"),
        Known(group: "network", name: "bytes_downloaded", words: "received", bytes: true),
        Known(group: "network", name: "bytes_discarded", words: "wasted", bytes: true, under: "bytes_downloaded"),
        Known(group: "network", name: "retries", words: "retries"),
        Known(group: "caches", name: "memory_hits", words: "memory hits"),
        Known(group: "caches", name: "disk_hits", words: "disk hits"),
        Known(group: "caches", name: "disk_entries_discarded", words: "bad", under: "disk_hits"),
        Known(group: "caches", name: "revalidated", words: "revalidated", quietAtZero: true),
        Known(group: "caches", name: "not_modified", words: "not modified", under: "revalidated"),
        Known(group: "caches", name: "failures_remembered", words: "failures remembered", quietAtZero: true),
        Known(group: "caches", name: "memory_purges", words: "memory purges", quietAtZero: true),
        Known(group: "caches", name: "coalesced", words: "joined"),
        Known(group: "caches", name: "decodes", words: "decodes"),
        Known(group: "caches", name: "embedded_thumbnails", words: "embedded thumbnails", quietAtZero: true),
        Known(group: "caches", name: "renders", words: "renders"),
        Known(group: "caches", name: "prefetches_started", words: "prefetches"),
        Known(group: "caches", name: "prefetches_cancelled", words: "cancelled", under: "prefetches_started"),
    ]

    /// The group names in the order they are shown.
    static let order = ["correctness", "reuse", "network", "caches", "other"]

    init(_ counters: [(name: String, value: Int)]) {
        var values: [String: Int] = [:]
        for (name, value) in counters { values[name] = value }
        wrongPaints = values["wrong_paints"]
        let byName = Dictionary(Self.known.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var phrases: [String: [String]] = [:]
        for known in Self.known where known.under.map({ values[$0] == nil }) ?? true {
            guard let value = values[known.name], value != 0 || !known.quietAtZero else { continue }
            let details = Self.known.filter { $0.under == known.name }.compactMap { detail in
                values[detail.name].map { Self.phrase(detail, $0, valueFirst: true) }
            }
            let phrase = Self.phrase(known, value, valueFirst: false)
                + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
            phrases[known.group, default: []].append(phrase)
        }
        for (name, value) in counters where byName[name] == nil && name != "wrong_paints" {
            phrases["other", default: []].append("\(name) \(value)")
        }
        groups = Self.order.compactMap { name in phrases[name].map { Group(name: name, phrases: $0) } }
    }

    /// "requests 50", or inside brackets "12 cancelled".
    private static func phrase(_ known: Known, _ value: Int, valueFirst: Bool) -> String {
        let shown = known.bytes ? SlotLog.bytes(value) : String(value)
        if valueFirst { return "\(shown) \(known.words)" }
        // A detail whose counter is missing stands alone, under its own name: "cancelled 3" would say too little.
        return "\(known.under == nil ? known.words : known.name) \(shown)"
    }
}
