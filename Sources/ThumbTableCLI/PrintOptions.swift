import ArgumentParser
import FoundationEssentials

/// The print mode's options, shared by every browsing command through `DisplayOptions`: print one screen to stdout
/// instead of opening the table, at what size, and how long to wait for it.
struct PrintOptions: ParsableArguments {
    @Flag(help: """
        Print one screen to stdout as text (ANSI colours unless --color none or NO_COLOR) once the thumbnails on it \
        have loaded or failed, then exit; no terminal needed.
        """)
    var print = false

    @Option(parsing: .unconditional, help: """
        The screen --print prints, COLSxROWS, \(Self.smallest) to \(Ceiling.printScreen) (default: the terminal's \
        size when stdout is one, else \(Self.defaultSize)).
        """)
    var printSize: String?

    // Not --timeout: that is one image download's limit, and a screen waits for many downloads and a page or two.
    @Option(parsing: .unconditional, help: """
        Seconds --print waits for the screen to settle before it prints what it has (default \
        \(Int(Self.defaultTimeout)), at most \(Int(Ceiling.timeoutSeconds))).
        """)
    var printTimeout: Double?

    /// How long to wait for the screen to settle.
    var timeout: Duration { .milliseconds(Int(timeoutSeconds * 1000)) }
    var timeoutSeconds: Double { printTimeout ?? Self.defaultTimeout }

    static let defaultTimeout: Double = 60
    /// The size printed when stdout is not a terminal.
    static let defaultSize = CellBox(columns: 120, rows: 40)
    /// The smallest screen printed: the header, two lines of rows, the footer, and room for a title beside them.
    static let smallest = CellBox(columns: 20, rows: 4)

    func validate() throws {
        if let printSize { _ = try CellBox(parsing: printSize, option: "--print-size", ceiling: Ceiling.printScreen) }
        if let printTimeout {
            try Ceiling.check(printTimeout, "--print-timeout", in: 0.1...Ceiling.timeoutSeconds, unit: "seconds")
        }
        if !print, printSize != nil || printTimeout != nil {
            throw ValidationError("--print-size and --print-timeout go with --print; add --print to print a screen")
        }
    }

    /// The screen to print: --print-size, else the terminal's size when stdout is one, else 120x40; a size below
    /// `smallest` grows to it, with a note on stderr.
    func screenSize() throws(ValidationError) -> CellBox {
        var box = Self.defaultSize
        if let printSize {
            box = try CellBox(parsing: printSize, option: "--print-size", ceiling: Ceiling.printScreen)
        } else if let terminal = RenderCommand.terminalSize() {
            // One line less than the terminal (as render does), so the prompt after it leaves the header in view.
            box = CellBox(columns: min(terminal.columns, Ceiling.printScreen.columns),
                          rows: min(terminal.rows, Ceiling.printScreen.rows))
        }
        let clamped = CellBox(columns: max(box.columns, Self.smallest.columns), rows: max(box.rows, Self.smallest.rows))
        if clamped != box {
            Messages.error("note: \(box) is smaller than \(Self.smallest), the smallest screen --print prints; "
                           + "printing \(clamped)")
        }
        return clamped
    }
}
