import Cells
import Dispatch
import Foundation
import Items
import Table
import Terminal

/// The running program: the event loop on the main actor that ties the terminal to the table.
///
/// Nothing polls. Keys, mouse and resizes come from the terminal's dispatch sources, SIGINT/SIGTERM/SIGHUP from
/// signal sources, results from tasks; each change schedules one frame. The spinner timer runs only while
/// something on screen is loading, so an idle screen uses no CPU.
@MainActor
public final class App {
    private let terminal: Terminal
    public let table: TableController
    private var needsFrame = false
    private var spinnerTimer: DispatchSourceTimer?
    private var signalSources: [DispatchSourceSignal] = []
    private var finish: CheckedContinuation<Int32, Never>?
    private var exitStatus: Int32?

    /// Takes over the terminal. The caller must call `run()`, which always gives it back.
    /// - Parameter loader: makes the thumbnail loader, given the number of colours the terminal can show and
    ///   whether it can show Unicode (a non-UTF-8 locale cannot).
    public init(source: any ItemSource, configuration: TableController.Configuration,
                loader: (_ terminalColors: Int, _ unicode: Bool) -> any ThumbnailLoading) throws {
        terminal = try Terminal()
        var configuration = configuration
        configuration.theme = terminal.colorCount >= 256 ? .color : .basic
        table = TableController(source: source, loader: loader(terminal.colorCount, terminal.unicode),
                                configuration: configuration)
    }

    /// Runs until the user quits or a signal ends the program; restores the terminal and returns the exit status.
    public func run() async -> Int32 {
        defer { terminal.restore() }
        table.resize(columns: terminal.size.columns, rows: terminal.size.rows)
        table.onChange = { [weak self] in self?.setNeedsFrame() }
        terminal.startEvents { [weak self] events in self?.handle(events) }
        for (signalNumber, status) in [(SIGINT, Int32(130)), (SIGTERM, 143), (SIGHUP, 129)] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.quit(status: status) } }
            source.resume()
            signalSources.append(source)
        }
        table.start()
        drawFrame()
        let status = await withCheckedContinuation { continuation in
            if let exitStatus {
                continuation.resume(returning: exitStatus)
            } else {
                finish = continuation
            }
        }
        spinnerTimer?.cancel()
        signalSources.forEach { $0.cancel() }
        table.cancelAll()
        return status
    }

    /// Ends the loop with an exit status (0 for q).
    public func quit(status: Int32) {
        guard exitStatus == nil else { return }
        exitStatus = status
        finish?.resume(returning: status)
        finish = nil
    }

    private func handle(_ events: [InputEvent]) {
        for event in events {
            if case .quit(let status) = KeyBindings.handle(event, table: table, terminalSize: terminal.size) {
                quit(status: status)
                return
            }
            if event == .resize { terminal.invalidate() }
        }
        setNeedsFrame()
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
        guard exitStatus == nil else { return }
        terminal.draw(table.frame())
        updateSpinner()
    }

    private func updateSpinner() {
        if table.isAnimating {
            guard spinnerTimer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100),
                           leeway: .milliseconds(20))
            timer.setEventHandler { [weak self] in
                MainActor.assumeIsolated {
                    guard let self else { return }
                    self.table.tick += 1
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
