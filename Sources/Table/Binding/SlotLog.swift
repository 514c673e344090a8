import Basics
import Cells
import FoundationEssentials

/// The latest things that happened to the row slots, in words, for the reuse overlay: a slot moving from one row to
/// another, the load it cancelled and where that load stood, where a picture came from, a late result dropped.
///
/// Written by the slots and the pool as things happen (in `update()` and when results arrive), never while a frame
/// is composed; it keeps only the last `capacity` entries, so it costs the same after an hour of scrolling.
@MainActor
public final class SlotLog {
    /// The most entries kept.
    public let capacity: Int
    /// The entries, oldest first.
    public private(set) var entries: [String] = []

    public init(capacity: Int = 12) {
        self.capacity = max(1, capacity)
    }

    func add(slot: Int, _ text: String) {
        entries.append("slot \(slot): \(text)")
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }

    /// A row's number as users see it (items count from 0, rows from 1).
    nonisolated static func row(_ item: Int) -> String { "row \(item + 1)" }

    /// A URL short enough for a log line: its path, with the middle left out when it has more than two parts
    /// ("id/150/…/5"), made safe for the terminal.
    nonisolated static func shortURL(_ url: URL) -> String {
        let parts = url.path.split(separator: "/").map(String.init)
        let short = parts.count > 2 ? "\(parts[0])/…/\(parts[parts.count - 1])" : parts.joined(separator: "/")
        return TerminalText.visible(short.isEmpty ? url.absoluteString : short)
    }

    /// "row 5 → row 17" (with "->" where the terminal has no Unicode).
    nonisolated static func move(from old: Int?, to new: Int) -> String {
        (old.map(row) ?? "free") + (TerminalText.unicodeAvailable ? " → " : " -> ") + row(new)
    }

    /// "cancelled id/…/5, 40 KB received": what a slot cancelled and where its download stood, short enough for
    /// a log line on 80 columns.
    nonisolated static func cancelled(_ url: URL, standing: DownloadStanding?) -> String {
        let what = "cancelled " + shortURL(url)
        switch standing {
        case .waiting: return what + " waiting for a connection"
        case .receiving(0): return what + " before any byte"
        case .receiving(let n): return what + ", " + bytes(n) + " received"
        case nil: return what
        }
    }

    /// A byte count as "512 B", "40 KB", "1.2 MB".
    nonisolated static func bytes(_ n: Int) -> String {
        if n < 1024 { return "\(n) B" }
        if n < 1 << 20 { return "\(n / 1024) KB" }
        return (Double(n) / Double(1 << 20)).fixed(1) + " MB"
    }
}
