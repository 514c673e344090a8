import Cells

/// The spinner shown while something loads: the one place its frames are chosen, one per tick of the app's timer.
enum Spinner {
    static let frames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    static let asciiFrames: [Character] = ["|", "/", "-", "\\"]

    /// The frame for a tick, in Unicode or, when the terminal cannot show it, ASCII.
    static func frame(_ tick: Int) -> Character {
        let frames = TerminalText.unicodeAvailable ? Self.frames : Self.asciiFrames
        return frames[tick % frames.count]
    }
}
