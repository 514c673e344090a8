import Basics
import Cells
import Dispatch
import FoundationEssentials
import Glibc
import Graphics
import Items
import Pipeline
import Table
import Terminal

/// The running program: the event loop on the main actor that ties the terminal to the table.
///
/// Nothing polls. Keys, mouse, resizes and signals come from the terminal's dispatch sources, results from tasks;
/// each change schedules one frame. The spinner timer runs only while something on screen is loading, so an idle
/// screen uses no CPU.
@MainActor
public final class App {
    private let terminal: Terminal
    /// ThumbTable's table; under `demo --compare`, the right half.
    public let table: TableController
    /// The naive table beside it under `demo --compare`, or nil.
    private let split: SplitScreen?
    private var autoplay: Autoplay?
    /// What `w`, `W`, `o` and `y` do on ThumbTable's table (none on the split screen's).
    private var itemActions: ItemActions?
    /// The pictures drawn in pixels over their text art (sixel, iTerm2, kitty placements) or as kitty's Unicode
    /// placeholders in its place: the thumbnails' and the pane's, as far as the terminal shows them.
    private let pictures: TerminalPictures?
    /// What a picker's Enter chose (`TableController.Configuration.picking`), in list order; empty until then.
    public private(set) var picked: [Item] = []
    /// Called after each `update()`, before the frame is drawn: a picker looks there at what has arrived (an empty
    /// input, the one match of `--select-1`), and may end the run.
    public var afterUpdate: (@MainActor () -> Void)?
    /// Called when the loop ends, before the terminal is restored: the counters are read there, as they stood.
    public var onQuit: (@MainActor () -> Void)?
    /// Called once the loop has ended and the terminal is given back, before `exitDeadline` starts: what the program
    /// writes as it ends (the autoplay's summary on stdout, `--stats-file`) is written here, on the main queue. After
    /// `run()` returns it could be cut off: `run()` resumes as a task job, and on a loaded machine that took longer
    /// than the deadline, which then ended the process without the summary. Returns the status to exit with: the
    /// one given, or another when writing failed.
    public var onRestored: (@MainActor (_ status: Int32) -> Int32)?
    private var needsFrame = false
    /// Until when frames wait for the first page, at most 50 ms: a "loading…" frame drawn over at once (issue 27).
    private var firstPageDeadline: DispatchTime?
    private var spinnerTimer: DispatchSourceTimer?
    private var finish: CheckedContinuation<Int32, Never>?
    private var exitStatus: Int32?

    /// How long the caller may take to clean up after `run()` returns before the process ends anyway: a task stuck
    /// in a blocking call (a FIFO, a dead file system) must not keep a quitting program alive.
    public static let exitDeadline: Duration = .milliseconds(500)

    /// Runs the table on `terminal`, which the caller opened (it took the screen then); the caller must call
    /// `run()`, which always gives it back.
    /// - Parameters:
    ///   - loader: the thumbnail loader, made for the terminal's colours and whether it shows Unicode.
    ///   - pixels: the pipeline that gives pictures in pixels, for thumbnails as terminal images where the terminal
    ///     shows them (not under `demo --compare`).
    ///   - naive: for `demo --compare`, the source and loader of the naive table shown beside ThumbTable's (its
    ///     slots bound with `SlotBindingPolicy.naive`, the bug on purpose).
    ///   - saveFolder: where `w` and `W` save (`--save-dir`).
    public init(terminal: Terminal, source: any ItemSource, configuration: TableController.Configuration,
                loader tableLoader: any ThumbnailLoading, saveFolder: String = ".", pixels: ImagePipeline? = nil,
                naive: (source: any ItemSource, loader: any ThumbnailLoading)? = nil) {
        // A write to a socket the other end closed must fail with EPIPE, not end the program.
        signal(SIGPIPE, SIG_IGN)
        self.terminal = terminal
        var configuration = configuration
        configuration.theme = .forColors(terminal.colorCount)
        configuration.helpLines = KeyTable.helpLines(picking: configuration.picking)
        let table = TableController(source: source, loader: tableLoader, configuration: configuration)
        self.table = table
        pictures = Self.makePictures(for: terminal, pipeline: naive == nil ? pixels : nil)
        if let pictures, pictures.drawsPane, let pixels, naive == nil {
            table.playPaneAnimations(inPixels: Self.paneAnimations(in: pictures, pipeline: pixels))
        }
        if let naive {
            var naiveConfiguration = configuration
            naiveConfiguration.slotBinding = .naive
            split = SplitScreen(naive: TableController(source: naive.source, loader: naive.loader,
                                                       configuration: naiveConfiguration),
                                ours: table)
        } else {
            split = nil
        }
        itemActions = naive == nil
            ? ItemActions(loader: tableLoader, saveFolder: saveFolder, localFiles: source.origin == .local) {
                terminal.send($0)
            } : nil
        terminal.onGraphicsReply = { [weak pictures] response in pictures?.handle(response) }
        let pixelsNote = Self.pixelsNote(for: terminal, showing: naive != nil)
        let notes = [terminal.entryNote, terminal.colorNote, terminal.graphics.note, pixelsNote].compactMap { $0 }
        if !notes.isEmpty { table.say(notes.joined(separator: "; ")) }
    }

    /// Runs until the user quits or a signal ends the program; restores the terminal and returns the exit status.
    ///
    /// The process then ends within `exitDeadline` whatever the caller's cleanup is waiting for (see `quit`).
    public func run() async -> Int32 {
        resizeTables()
        for table in tables { table.onChange { [weak self] in self?.setNeedsFrame() } }
        pictures?.onChange = { [weak self] in self?.setNeedsFrame() }
        terminal.startEvents { [weak self] events in self?.handle(events) }
        for table in tables { table.start() }
        let deadline = DispatchTime.now() + .milliseconds(50)
        firstPageDeadline = deadline
        DispatchQueue.main.asyncAfter(deadline: deadline) { [weak self] in
            MainActor.assumeIsolated { if self?.firstPageDeadline != nil { self?.drawFrame() } }
        }
        drawFrame()
        let status = await withCheckedContinuation { continuation in
            if let exitStatus {
                continuation.resume(returning: exitStatus)
            } else {
                finish = continuation
            }
        }
        for table in tables { table.cancelAll() }
        pictures?.cancel()
        return status
    }

    /// The naive table of `demo --compare`, or nil.
    public var naiveTable: TableController? { split?.naive }

    /// Every table on screen: ThumbTable's, and the naive one beside it under `demo --compare`.
    private var tables: [TableController] { split?.tables ?? [table] }

    /// Plays `steps` on every table once the first page is on screen (`demo --autoplay`); at the end, once the pictures on screen
    /// loaded, the app quits with status 0. Any key stops it, and the user goes on by hand.
    public func autoplay(_ steps: [AutoplayScript.Step]) {
        autoplay = Autoplay(steps: steps, press: { [weak self] key in _ = self?.dispatch(.key(key)) },
                            redraw: { [weak self] in self?.setNeedsFrame() }) { [weak self] outcome in
            if outcome != .stopped { self?.quit(status: 0) }
        }
    }

    /// How the autoplay (if any) ended, in the summary's words: played to the end, and whether the screen settled.
    public var autoplayEnding: String {
        switch autoplay?.outcome {
        case .finished: "played to the end"
        case .unsettled: "played to the end, pictures still loading \(Autoplay.settleTimeout) later"
        case .stopped, nil: "stopped by a key"
        }
    }

    private func resizeTables() {
        if let split {
            split.resize(columns: terminal.size.columns, rows: terminal.size.rows)
        } else {
            table.resize(columns: terminal.size.columns, rows: terminal.size.rows)
        }
    }

    /// Ends the process `delay` from now with `status`, on a thread of its own: the main queue and the cooperative
    /// pool may both be waiting for what is stuck.
    private static func endProcess(status: Int32, after delay: Duration) {
        let (seconds, attoseconds) = delay.components
        let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        BackgroundThread.start(name: "exit deadline") {
            BackgroundThread.sleep(milliseconds: milliseconds)
            fflush(nil)
            _exit(status)
        }
    }

    /// Ctrl-Z or SIGTSTP: gives the terminal back, stops until `fg`, then draws the whole screen again.
    private func suspend() {
        guard exitStatus == nil else { return }
        // kitty keeps images per screen: the shell's screen must not keep ours. They are sent again on resume.
        pictures?.leaveScreen()
        terminal.suspendProcess()
        redrawAll()
    }

    /// SIGCONT: continued after a stop from outside (SIGSTOP), or after `suspend()`; the screen is drawn anew.
    private func resumed() {
        guard exitStatus == nil else { return }
        terminal.resumeScreen()
        redrawAll()
    }

    private func redrawAll() {
        followCellPixels()
        resizeTables()
        invalidateScreen()
        // The pictures were sent again (kitty's deleted on Ctrl-Z, or made for other cells): so are the pane's frames.
        if pictures != nil { table.replayPaneAnimation() }
        drawFrame()
    }

    /// Sizes pictures in pixels for the terminal's cells as they are now (a font size change keeps the cells but
    /// not their pixels).
    private func followCellPixels() {
        guard let cells = terminal.cellPixels else { return }
        pictures?.cellPixelsChanged(to: cells)
    }

    /// Makes the next draw repaint every cell, which also erases pictures drawn over them.
    private func invalidateScreen() {
        terminal.invalidate()
        pictures?.screenRepainted()
    }

    /// Ends the loop choosing `items` (as a picker's Enter does), with exit status 0.
    public func pick(_ items: [Item]) {
        guard exitStatus == nil else { return }
        picked = items
        quit(status: 0)
    }

    /// Ends the loop with an exit status (0 for q): restores the terminal now, writes what the program leaves
    /// behind (`onRestored`), and ends the process within `exitDeadline` whatever the caller's cleanup waits for.
    ///
    /// The terminal is restored here rather than where `run()` resumes: a key or signal handler runs as a plain
    /// block on the main queue, but `run()` resumes as a task job, and those wait while tasks stuck in blocking calls
    /// hold every thread of the pool.
    public func quit(status: Int32) {
        guard exitStatus == nil else { return }
        exitStatus = status
        autoplay?.stop()
        onQuit?()
        spinnerTimer?.cancel()
        spinnerTimer = nil
        pictures?.leaveScreen()
        terminal.restore()
        let status = onRestored?(status) ?? status
        exitStatus = status
        Self.endProcess(status: status, after: Self.exitDeadline)
        finish?.resume(returning: status)
        finish = nil
    }

    private func handle(_ events: [InputEvent]) {
        for event in events {
            switch event {
            case .signal(SIGTSTP):
                suspend()
                continue
            case .signal(SIGCONT):
                resumed()
                continue
            case .signal(let signalNumber):
                // Ended by a signal: the status a shell shows for it.
                quit(status: 128 + signalNumber)
                return
            default:
                break
            }
            // A key (or a click) takes over from the autoplay.
            if event != .resize { autoplay?.stop() }
            switch dispatch(event) {
            case .quit(let status):
                quit(status: status)
                return
            case .pick(let items):
                pick(items)
                return
            case .suspend:
                suspend()
            case .handled:
                break
            }
            if event == .resize {
                followCellPixels()
                invalidateScreen()
            }
        }
        terminal.qQuits = table.screen.isList
        setNeedsFrame()
    }

    /// Hands an event to the table, or to both halves of the split screen.
    private func dispatch(_ event: InputEvent) -> KeyBindings.Outcome {
        split?.handle(event, terminalSize: terminal.size)
            ?? KeyBindings.handle(event, table: table, terminalSize: terminal.size, actions: itemActions)
    }

    /// Schedules one frame for the end of this turn of the main queue, however many changes ask for it.
    private func setNeedsFrame() {
        guard !needsFrame, exitStatus == nil else { return }
        needsFrame = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated { self?.drawFrame() }
        }
    }

    private func drawFrame() {
        needsFrame = false
        if let deadline = firstPageDeadline {
            let waiting = split == nil && table.pagesLoaded == 0 && table.listStatus == .loading
            guard !waiting || DispatchTime.now() >= deadline else { return }
            firstPageDeadline = nil
        }
        guard exitStatus == nil else { return }
        if let split {
            terminal.draw(split.composeFrame(columns: terminal.size.columns, rows: terminal.size.rows))
        } else {
            table.update()
            afterUpdate?()
            guard exitStatus == nil else { return }
            drawTable()
        }
        updateSpinner()
        autoplay?.frameDrawn(hasRows: !tables.contains(where: \.isWaitingForPage),
                             settled: tables.allSatisfy(\.isSettled))
    }

    /// Draws the table's frame with its pictures: the lines of pictures that left are repainted with the text, the
    /// pictures that are text cells drawn in it, then the pictures wanted in pixels and not yet on screen are sent
    /// over it.
    private func drawTable() {
        guard let pictures else { return terminal.draw(table.frame()) }
        let wanted = table.screenPictures
        let repaint = pictures.frameWill(show: wanted, flying: table.isScrollFlying)
        for lines in repaint { terminal.repaint(lines: lines) }
        // The pane's animation ended under the help, or with the cells' old pixel size: its picture shows again.
        if pictures.takeInterruptedAnimation(showing: wanted) { table.replayPaneAnimation() }
        terminal.draw(table.frame(pictureCells: pictures.cells))
        pictures.frameDrawn()
        table.countWrongPaints(pictures.wrongPictures)
    }

    private func updateSpinner() {
        if tables.contains(where: \.isAnimating) {
            guard spinnerTimer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100),
                           leeway: .milliseconds(20))
            timer.setEventHandler { [weak self] in
                MainActor.assumeIsolated {
                    guard let self else { return }
                    for table in self.tables { table.advanceSpinner() }
                    self.setNeedsFrame()
                }
            }
            timer.resume()
            spinnerTimer = timer
        } else if let timer = spinnerTimer {
            timer.cancel()
            spinnerTimer = nil
        }
    }
}
