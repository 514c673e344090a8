import Cells

/// Draws the batch prefetch's progress bar over the status line: counts, failures, and how to cancel.
struct BatchProgressBar {
    var progress: BatchProgress
    var theme: Theme

    func draw(into frame: inout CellBuffer, y: Int) {
        let width = frame.width
        let counts = "\(progress.done + progress.failed)/\(progress.total)"
            + (progress.failed > 0 ? " (\(progress.failed) failed)" : "")
        let label = progress.cancelled ? " prefetch cancelled " : progress.finished ? " prefetched " : " prefetching "
        let tail = " \(counts)" + (progress.finished ? "" : " · Esc cancels")
        let barWidth = max(0, width - label.displayWidth - tail.displayWidth - 2)
        let filled = progress.total == 0 ? barWidth
            : barWidth * (progress.done + progress.failed) / progress.total
        let unicode = TerminalText.unicodeAvailable
        let bar = String(repeating: unicode ? "█" : "#", count: filled)
            + String(repeating: unicode ? "░" : ".", count: barWidth - filled)
        frame.fill(x: 0, y: y, width: width, height: 1, with: Cell(" ", style: theme.status))
        frame.put(label + "[" + bar + "]" + tail, x: 0, y: y, style: theme.status, maxWidth: width)
    }
}
