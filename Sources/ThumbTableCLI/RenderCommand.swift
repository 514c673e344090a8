import ArgumentParser
import Cells
import Codecs
import FoundationEssentials
import Glibc
import Pipeline
import Pixels
import TextArt

/// `thumbtable render FILE|URL`: one image as text art on stdout.
///
/// Uses the same decode-and-render rule as the table's thumbnails (decode to cover the box, fit the grid to the
/// image's full-size aspect ratio, render), so `render` at a size shows what a row shows at that size. Its options
/// are declared here once: ArgumentParser reads them, and so does the quick parser (`RenderQuickParse.swift`).
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print an image as text art.",
        discussion: """
            Prints plain text with --color none, ANSI colours otherwise. The picture fits inside the --size box \
            keeping its aspect ratio (for cells --cell-aspect as wide as tall), or fills it with --stretch.
            """)

    @Argument(help: "An image file (JPEG, PNG, GIF, WebP, HEIC, AVIF, JPEG XL) or an http(s) URL.")
    var input: String

    // Number options take the next argument whatever it looks like, so `--size -5x3` is told what is wrong with
    // -5x3 instead of "Missing value for '--size'" (ArgumentParser reads a leading dash as an option).
    @Option(parsing: .unconditional, help: """
        The box to fit in, in cells: COLSxROWS, at most \(Ceiling.renderBox) (default: the terminal's size, else 80x24).
        """)
    var size: String?

    @Option(parsing: .unconditional, help: "Columns of the box, 1 to \(Ceiling.renderBox.columns) (overrides --size).")
    var cols: Int?

    @Option(parsing: .unconditional, help: "Rows of the box, 1 to \(Ceiling.renderBox.rows) (overrides --size).")
    var rows: Int?

    @Flag(help: "Fill the box exactly instead of keeping the aspect ratio.")
    var stretch = false

    @Option(help: "The glyphs cells draw with (sextants need a terminal or font that has them).")
    var mode: RenderMode = TextArtOptions.default.mode

    @Option(help: """
        Colours (default: none if NO_COLOR is set, truecolor if COLORTERM is truecolor or 24bit, 256 if TERM \
        names a 256-colour terminal, else truecolor).
        """)
    var color: ColorDepth?

    @Option(help: "Dithering for the palette depths (none, 16, 256 colours).")
    var dither: Dither = TextArtOptions.default.dither

    @Option(parsing: .unconditional, help: """
        A cell's width divided by its height, \(Ceiling.cellAspect.lowerBound) to \(Ceiling.cellAspect.upperBound).
        """)
    var cellAspect: Double = TextArtOptions.default.cellAspect

    @Option(help: "The terminal's background, #RRGGBB: transparent pixels are drawn on it.")
    var background = Self.defaultBackground

    @Option(help: """
        text (text art), or the picture in pixels for a terminal that draws them: sixel (xterm -ti vt340, foot, \
        mlterm, WezTerm) or iterm2 (iTerm2, WezTerm); a cell's pixels come from the terminal, else 10x20.
        """)
    var graphics: RenderGraphics = .text

    @Option(parsing: .unconditional,
            help: "Seconds to wait for an http(s) download, at most \(Int(Ceiling.timeoutSeconds)).")
    var timeout = Self.defaultTimeout

    // The defaults that are not TextArtOptions.default's: named, because the quick parser starts from them too.
    static let defaultBackground = "#000000"
    static let defaultTimeout: Double = 15

    func validate() throws(ValidationError) {
        if let size { _ = try CellBox(parsing: size, option: "--size", ceiling: Ceiling.renderBox) }
        if let cols { try Ceiling.check(cols, "--cols", in: 1...Ceiling.renderBox.columns) }
        if let rows { try Ceiling.check(rows, "--rows", in: 1...Ceiling.renderBox.rows) }
        try Ceiling.check(cellAspect, "--cell-aspect", in: Ceiling.cellAspect,
                          then: "a terminal's cell is usually about 0.5 (twice as tall as wide)")
        guard Self.parseColor(background) != nil else {
            throw ValidationError("--background must look like #000000, got '\(background)'")
        }
        try Ceiling.check(timeout, "--timeout", in: 0.1...Ceiling.timeoutSeconds, unit: "seconds")
    }

    func run() async throws {
        try render(downloaded: isURL ? try await download() : nil)
    }

    static func parseColor(_ text: String) -> RGBA? {
        var hex = Substring(text)
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard hex.count == 6, let v = UInt32(hex, radix: 16) else { return nil }
        return RGBA(r: UInt8(v >> 16), g: UInt8(v >> 8 & 0xFF), b: UInt8(v & 0xFF))
    }

    /// The colour depth the environment asks for, by the usual conventions.
    static func terminalColorDepth() -> ColorDepth {
        // getenv, not ProcessInfo's environment: that builds a dictionary of every variable, which showed in the
        // profile of a whole `render` run.
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        if let noColor = variable("NO_COLOR"), !noColor.isEmpty { return .none }
        if let colorTerm = variable("COLORTERM"), colorTerm == "truecolor" || colorTerm == "24bit" { return .truecolor }
        if let term = variable("TERM"), term.contains("256color") { return .palette256 }
        return TextArtOptions.default.color
    }

    static func terminalSize() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0,
              size.ws_col > 0, size.ws_row > 1 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row) - 1)
    }
}

extension Dither: ExpressibleByArgument {}

// MARK: Rendering

extension RenderCommand {
    /// Whether the input is an http(s) URL rather than a file.
    var isURL: Bool {
        let lowercased = input.lowercased()
        return lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://")
    }

    /// Decodes and prints the picture: the file named by the input, or the bytes downloaded from it.
    func render(downloaded: [UInt8]?) throws {
        if graphics != .text { return try renderPixels(downloaded: downloaded) }
        let box = self.box()
        let options = TextArtOptions(mode: mode, color: color ?? Self.terminalColorDepth(), dither: dither,
                                     cellAspect: cellAspect, background: Self.parseColor(background)!)
        let grid = CellSize(columns: box.columns, rows: box.rows)
        var fit = PictureFit(filling: grid, mode: mode)
        let decoded: DecodedImage
        do {
            // The same rule as the table's thumbnails (PictureFit); --stretch fills the whole box instead.
            decoded = try decode(downloaded) { bytes throws(DecodeError) in
                let image = EncodedImage(bytes)
                if !stretch { fit = PictureFit(of: image, in: grid, options: options) }
                return try fit.decode(image)
            }
        } catch let failure as RenderFailure {
            Messages.error(failure.message)
            throw ExitCode.failure
        }
        if let warning = decoded.warning { Messages.error("warning: \(input): \(warning)") }
        let cells = fit.render(decoded, options: options)
        do {
            try StandardStreams.write(options.color == .none ? cells.plainUTF8 : cells.ansiUTF8, to: STDOUT_FILENO)
        } catch {
            Messages.error("cannot write the picture to stdout: \(error)")
            throw ExitCode.failure
        }
    }

    /// The box to fit in: --size, --cols and --rows, else the terminal's size (less a line for the prompt).
    func box() -> (columns: Int, rows: Int) {
        // validate() has checked --size; a terminal wider or taller than the ceiling gets the ceiling.
        var box: (columns: Int, rows: Int) = (80, 24)
        if let size, let parsed = try? CellBox(parsing: size, option: "--size", ceiling: Ceiling.renderBox) {
            box = (parsed.columns, parsed.rows)
        } else if let terminal = RenderCommand.terminalSize() {
            box = (min(terminal.columns, Ceiling.renderBox.columns), min(terminal.rows, Ceiling.renderBox.rows))
        }
        if let cols { box.columns = cols }
        if let rows { box.rows = rows }
        return box
    }

    struct RenderFailure: Error {
        var message: String
    }

    /// The bytes at the input's URL.
    func download() async throws -> [UInt8] {
        guard let url = URL(string: input) else {
            Messages.error("\(input): not a valid URL")
            throw ExitCode.failure
        }
        do {
            let limits = LoadLimits(timeout: .seconds(timeout))
            // The user named this URL on the command line: a file: URL is theirs to read.
            return try await DataLoader(localFiles: .allowed).load(url, limits: limits) { _ in }.bytes
        } catch {
            Messages.error("cannot download \(input): \(error)")
            throw ExitCode.failure
        }
    }

    /// Decodes `downloaded`, or else the file named by the input, with `decode`.
    func decode(_ downloaded: [UInt8]?, with decode: ([UInt8]) throws(DecodeError) -> DecodedImage) throws
        -> DecodedImage
    {
        if let downloaded {
            do {
                return try decode(downloaded)
            } catch {
                throw RenderFailure(message: "\(input): \(error)")
            }
        }
        do {
            return try decode(try ImageDecoder.readFile(at: input))
        } catch {
            if case .unreadable = error { throw RenderFailure(message: "\(error)") }
            throw RenderFailure(message: "\(input): \(error)")
        }
    }
}
