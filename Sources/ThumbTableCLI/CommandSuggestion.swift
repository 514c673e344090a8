import FoundationEssentials

/// What to tell a user whose first argument is not a command.
///
/// Without it `thumbtable brwse` goes to the default command, the demo, which takes no arguments, and the user reads
/// the demo's usage. A first argument that is not an option can only be meant as a command (or as what a command
/// takes: a folder, a picture), so it is answered here, before ArgumentParser.
enum CommandSuggestion {
    /// The message for `arguments`, or nil when ArgumentParser should have them: no arguments, an option first, or a
    /// command's name first.
    static func mistake(in arguments: [String], commands: [String]) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-"), !commands.contains(word), word != "help" else {
            return nil
        }
        let list = "The commands are \(commands.joined(separator: ", ")) (thumbtable --help says what each does)."
        if let nearest = nearest(to: word, among: commands) {
            return "'\(word)' is not a command; did you mean '\(nearest)'? \(list)"
        }
        return "'\(word)' is not a command. \(list)"
    }

    /// The command closest to `word` by edit distance, if it is close enough to be a typo (about one edit in three
    /// letters), or that starts with `word` (`serve` for `serve-demo`).
    static func nearest(to word: String, among commands: [String]) -> String? {
        let lowercased = word.lowercased()
        let scored = commands.map { (command: $0, distance: editDistance(lowercased, $0)) }
        if let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= max(1, word.count / 3) {
            return best.command
        }
        guard lowercased.count >= 3 else { return nil }
        return commands.first { $0.hasPrefix(lowercased) }
    }

    /// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: the optimal string alignment distance,
    /// so `borwse` is one swap from `browse`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        // d[i][j]: the distance from a's first i characters to b's first j.
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
