import Cells
import FoundationEssentials
import Items
import LocalFiles
import Table
#if canImport(Glibc)
import Glibc
#endif

/// What the keys that take an item out of the program do: `w` saves the original image, `W` the picture as shown,
/// `o` opens the item's page or image in the browser, `y` copies that URL to the clipboard. Each says in the status
/// line what it did, or why not; the file writes run off the main actor and the cooperative pool.
@MainActor
public final class ItemActions {
    private let loader: any ThumbnailLoading
    /// Where `w` and `W` write (`--save-dir`).
    public let saveFolder: String
    private let browser: BrowserLauncher
    /// Whether the items are the user's own files (a folder): `o` opens the file, `y` copies its path.
    private let localFiles: Bool
    private let insideTmux: Bool
    /// Asks tmux how it handles a program's clipboard (`TmuxClipboard.ask`), when inside tmux; blocking.
    private let askTmux: @Sendable () -> TmuxClipboard?
    /// Writes bytes to the terminal after curses' output (`Terminal.send`).
    private let sendToTerminal: @MainActor ([UInt8]) -> Void

    public init(loader: any ThumbnailLoading, saveFolder: String, browser: BrowserLauncher = BrowserLauncher(),
                localFiles: Bool = false,
                insideTmux: Bool = getenv("TMUX").map { $0.pointee != 0 } ?? false,
                askTmux: @escaping @Sendable () -> TmuxClipboard? = { TmuxClipboard.ask() },
                sendToTerminal: @escaping @MainActor ([UInt8]) -> Void) {
        self.loader = loader
        self.saveFolder = saveFolder
        self.browser = browser
        self.localFiles = localFiles
        self.insideTmux = insideTmux
        self.askTmux = askTmux
        self.sendToTerminal = sendToTerminal
    }

    /// The item the keys act on: the detail pane's, else the selected row's.
    private func item(in table: TableController) -> Item? {
        table.detail?.item ?? table.selectedItem?.item
    }

    // MARK: Saving

    /// Saves the image of the item the keys act on, its bytes as they came (from the caches, else fetched), under a
    /// name from its URL or title (`SafeFileName`), with the extension of the format the bytes are in: the detail
    /// pane's image, else the selected row's (full size, as the pane would show it).
    public func saveOriginal(in table: TableController) {
        let target: (url: URL?, title: String)
        if let detail = table.detail {
            target = (detail.imageURL, detail.item.title)
        } else if let (_, item) = table.selectedItem {
            target = (table.selectedImageURL, item.title)
        } else {
            return table.say("nothing saved: no item is selected")
        }
        guard let url = target.url else { return table.say("nothing saved: this item has no image") }
        let stem = SafeFileName.stem(url: url, title: target.title)
        table.say("saving the image…")
        let loader = self.loader, folder = saveFolder
        Task { [weak table] in
            let note: String
            do {
                let original = try await loader.original(url)
                let fileExtension = original.fileExtension ?? "bin"
                let name = try await Self.write(original.bytes, folder: folder, stem: stem, fileExtension: fileExtension)
                note = "saved the image as \(Self.path(folder, name)) (\(Self.size(original.bytes.count)))"
                    + (original.fileExtension == nil
                        ? "; its bytes are no JPEG, PNG, GIF, WebP, HEIF, AVIF or JPEG XL" : "")
            } catch {
                note = "image not saved: \(error)"
            }
            table?.say(note)
        }
    }

    /// Saves the picture shown as text: the detail pane's, else the selected row's thumbnail; `.ans` with its
    /// colours as ANSI SGR sequences, `.txt` when it has none.
    public func saveArt(in table: TableController) {
        let target: (state: ThumbnailState, url: URL?, title: String)
        if let detail = table.detail {
            target = (detail.image, detail.imageURL, detail.item.title)
        } else if let (_, item) = table.selectedItem {
            target = (table.selectedThumbnail, item.rowImageURL, item.title)
        } else {
            return table.say("nothing saved: no item is selected")
        }
        let picture: CellBuffer
        switch target.state {
        case .loaded(let shown): picture = shown
        case .none: return table.say("nothing saved: this item has no picture")
        case .failed, .lookupFailed: return table.say("nothing saved: the picture failed to load (r retries)")
        case .loading: return table.say("nothing saved: the picture is not shown yet")
        }
        let ansi = picture.ansiUTF8
        let colourless = !ansi.contains(0x1B)
        let bytes = colourless ? picture.plainUTF8 : ansi
        let stem = SafeFileName.stem(url: target.url, title: target.title)
        let folder = saveFolder
        Task { [weak table] in
            let note: String
            do {
                let name = try await Self.write(bytes, folder: folder, stem: stem,
                                                fileExtension: colourless ? "txt" : "ans")
                note = "saved the picture as \(Self.path(folder, name))"
                    + (colourless ? " (no colours: plain text)" : " (ANSI colours: cat it in a terminal)")
            } catch {
                note = "picture not saved: \(error)"
            }
            table?.say(note)
        }
    }

    private static func write(_ bytes: [UInt8], folder: String, stem: String, fileExtension: String) async throws
        -> String {
        try await BlockingIO.run { () throws(NewFileWriter.Failure) in
            try NewFileWriter.write(bytes, folder: folder, stem: stem, fileExtension: fileExtension)
        }
    }

    private static func path(_ folder: String, _ name: String) -> String {
        folder == "." ? name : (folder.hasSuffix("/") ? folder + name : folder + "/" + name)
    }

    private static func size(_ bytes: Int) -> String {
        bytes < 10_000 ? "\(bytes) bytes" : bytes < 10_000_000 ? "\(bytes / 1000) KB" : "\(bytes / 1_000_000) MB"
    }

    // MARK: Opening and copying

    /// Opens the item's page, else its image, with `$BROWSER` or `xdg-open` (http(s) URLs only); a local file with
    /// the same command, its path as one argument.
    public func open(in table: TableController) {
        guard let item = item(in: table) else { return }
        switch ItemLink.of(item, localFiles: localFiles) {
        case .failure(let refusal):
            table.say("not opened: \(refusal)")
        case .success(let link):
            let command = browser.command[0]
            let ended: @Sendable (Int32) -> Void = { [weak table] status in
                guard status != 0 else { return }
                Task { @MainActor in table?.say("\(command) ended with status \(status) opening the \(link.kind)") }
            }
            do {
                if let path = link.path {
                    try browser.open(path, ended: ended)
                } else {
                    try browser.open(link.url, ended: ended)
                }
                table.say("opened the \(link.kind) with \(command): \(link.url)" + (link.caution.map { " · \($0)" } ?? ""))
            } catch {
                table.say("not opened: \(error)")
            }
        }
    }

    /// Copies the item's page URL, else its image URL (a local file's path), to the terminal's clipboard with
    /// OSC 52. Inside tmux, tmux is asked whether it passes the copy on, and the status line says what happened
    /// (`TmuxClipboard.note`).
    public func copyURL(in table: TableController) {
        guard let item = item(in: table) else { return }
        switch ItemLink.of(item, localFiles: localFiles) {
        case .failure(let refusal):
            table.say("not copied: \(refusal)")
        case .success(let link):
            guard let bytes = link.copied else {
                return table.say("not copied: the \(link.kind)'s name holds control characters (pasted into a shell, "
                                 + "a line break would run what follows it)")
            }
            sendToTerminal(Clipboard.sequence(copying: bytes, insideTmux: insideTmux))
            let caution = link.caution.map { " · \($0)" } ?? ""
            let what = link.path == nil ? "\(link.kind) URL" : "file's path"
            guard insideTmux else { return table.say("copied the \(what) (OSC 52): \(link.url)" + caution) }
            table.say("copying the \(what) through tmux…")
            let ask = askTmux
            // Asking tmux starts a process: off the main actor.
            Task { [weak table] in
                let settings = await BlockingIO.run { ask() }
                table?.say(TmuxClipboard.note(settings, what: what, url: link.url) + caution)
            }
        }
    }
}
