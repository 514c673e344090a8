@testable import App
import Cells
import Foundation
import Items
import LocalFiles
import Table
import Terminal
import TestSupport
import Testing

/// Saving (`w`, `W`), opening (`o`) and copying (`y`): safe file names from hostile URLs and titles, files created
/// without overwriting or following symlinks, failures said and nothing lost, the URL checked before it leaves.
@MainActor
@Suite struct ItemActionsTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tt-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func contents(_ name: String) -> [UInt8]? {
        (try? Data(contentsOf: folder.appendingPathComponent(name))).map { [UInt8]($0) }
    }

    // MARK: Names

    @Test func hostileURLsAndTitlesGiveSafeNames() {
        let url = { (s: String) in URL(string: s)! }
        #expect(SafeFileName.stem(url: url("http://h/photos/cat.jpeg?size=2"), title: "x") == "cat")
        #expect(SafeFileName.stem(url: url("http://h/a/..%2F..%2Fetc%2Fpasswd"), title: "x") == "etc_passwd")
        #expect(SafeFileName.stem(url: url("http://h/.bashrc"), title: "x") == "bashrc")
        #expect(SafeFileName.stem(url: url("http://h/"), title: "-rf /") == "rf", "no URL name: the title, no dash")
        #expect(SafeFileName.stem(url: nil, title: "\u{1B}]52;c;aGk=\u{07}title") == "52_c_aGk_title")
        #expect(SafeFileName.stem(url: nil, title: "evil\u{202E}gpj.exe") == "evil_gpj.exe")
        #expect(SafeFileName.stem(url: nil, title: "...") == "image")
        #expect(SafeFileName.stem(url: nil, title: "") == "image")
        #expect(SafeFileName.stem(url: nil, title: "Café au lait 東京") == "Café_au_lait_東京")
        let long = SafeFileName.stem(url: nil, title: String(repeating: "東", count: 200))
        #expect(long.utf8.count <= SafeFileName.maxBytes && long.utf8.count > SafeFileName.maxBytes - 3)
        for hostile in ["a/b", "a\\b", "a\0b", "a\nb", "a\u{85}b", "\u{7F}"] {
            let name = SafeFileName.clean(hostile)
            #expect(!name.contains("/") && !name.contains("\\") && !name.unicodeScalars.contains { $0.value < 0x20 })
        }
    }

    /// Names that would show as nothing: Hangul fillers, combining marks alone. The title is used instead, else
    /// `image`; a mark on a letter stays.
    @Test func invisibleNamesFallBackToTheTitleOrImage() {
        let url = { (s: String) in URL(string: s)! }
        for invisible in ["\u{3164}", "\u{3164}\u{3164}.png", "\u{115F}\u{1160}", "\u{FFA0}", "\u{0301}\u{0302}.jpg",
                          "\u{0301}", "_\u{0308}\u{0308}", "\u{0E49}\u{0E48}"] {
            let encoded = invisible.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
            #expect(SafeFileName.stem(url: url("http://h/" + encoded), title: "Rancor") == "Rancor",
                    "\(invisible.unicodeScalars.map { String($0.value, radix: 16) })")
            let title = String(invisible.prefix { $0 != "." })
            #expect(SafeFileName.stem(url: nil, title: title) == "image")
        }
        #expect(SafeFileName.clean("Cafe\u{0301}") == "Cafe\u{0301}", "a mark on a letter stays")
        #expect(SafeFileName.clean("a\u{3164}b") == "a_b")
    }

    // MARK: Writing

    /// A folder that exists but makes no files on request is not called missing.
    @Test func aSystemFolderIsNotCalledMissing() {
        for folder in ["/proc/self", "/proc", "/sys/kernel"] {
            let error = #expect(throws: NewFileWriter.Failure.self) {
                try NewFileWriter.write([1], folder: folder, stem: "x", fileExtension: "png")
            }
            #expect(error?.description.contains("no such folder") == false, "\(String(describing: error))")
        }
        let error = #expect(throws: NewFileWriter.Failure.self) {
            try NewFileWriter.write([1], folder: "/proc/self", stem: "x", fileExtension: "png")
        }
        #expect(error?.description.contains("this folder takes no new files") == true, "\(String(describing: error))")
    }

    @Test func aSecondSaveGetsANumberedNameAndBothKeepTheirBytes() throws {
        let first = try NewFileWriter.write([1, 2, 3], folder: folder.path, stem: "cat", fileExtension: "jpg")
        let second = try NewFileWriter.write([4, 5], folder: folder.path, stem: "cat", fileExtension: "jpg")
        #expect(first == "cat.jpg")
        #expect(second == "cat-1.jpg")
        #expect(contents("cat.jpg") == [1, 2, 3])
        #expect(contents("cat-1.jpg") == [4, 5])
    }

    @Test func aSymlinkInTheWayIsNeverFollowedNorReplaced() throws {
        let outside = folder.appendingPathComponent("outside.txt")
        try Data("keep me".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("dog.png").path,
                                                   withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("dog-1.png").path,
                                                   withDestinationPath: folder.appendingPathComponent("none").path)
        let name = try NewFileWriter.write([9], folder: folder.path, stem: "dog", fileExtension: "png")
        #expect(name == "dog-2.png", "a link, even a dangling one, is a name taken")
        #expect(contents("outside.txt") == Array("keep me".utf8))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("none").path))
    }

    /// A folder no one can write in: root writes anywhere chmod forbids, but not in sysfs.
    static var unwritableFolder: String? {
        if getuid() == 0 { return FileManager.default.fileExists(atPath: "/sys/kernel") ? "/sys" : nil }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tt-ro-\(UUID().uuidString)").path
        mkdir(path, 0o555)
        return path
    }

    @Test func anUnwritableOrMissingFolderSaysWhyAndWritesNothing() throws {
        let unwritable = try #require(Self.unwritableFolder)
        #expect(throws: NewFileWriter.Failure.self) {
            try NewFileWriter.write([1], folder: unwritable, stem: "cat", fileExtension: "jpg")
        }
        do {
            _ = try NewFileWriter.write([1], folder: unwritable, stem: "cat", fileExtension: "jpg")
        } catch {
            #expect(error.description.contains("permission denied"))
            #expect(error.description.contains(unwritable))
        }
        let missing = folder.appendingPathComponent("no/such").path
        do {
            _ = try NewFileWriter.write([1], folder: missing, stem: "cat", fileExtension: "jpg")
            Issue.record("a missing folder was written in")
        } catch {
            #expect(error.description == "cannot write in \(missing): the folder: no such folder; create it or give --save-dir another")
        }
    }

    // MARK: Through the keys

    /// A loader whose originals are the bytes of the URL's text, with the given extension.
    struct OriginalsLoader: ThumbnailLoading {
        let inner = FakeThumbnailLoader()
        func thumbnail(_ url: URL, size: CellSize) -> ThumbnailLoad { inner.thumbnail(url, size: size) }
        func original(_ url: URL) async throws -> OriginalImage {
            OriginalImage(bytes: Array(url.absoluteString.utf8), fileExtension: "png")
        }
        func removeFromCache(_ url: URL) { inner.removeFromCache(url) }
    }

    /// A table of five items with its first page in, and the item actions on it, saving into `folder`.
    func startedTable(loader: OriginalsLoader = OriginalsLoader(),
                      sent: @escaping @MainActor ([UInt8]) -> Void = { _ in },
                      browser: BrowserLauncher = .init(environment: [:]))
        async -> (TableController, ChangeWaiter, ItemActions) {
        let table = TableController(source: FakeItemSource(count: 5), loader: loader,
                                    configuration: .init(thumbnail: CellSize(columns: 8, rows: 3)))
        let waiter = ChangeWaiter(table)
        table.resize(columns: 80, rows: 24)
        table.start()
        await waiter.until { !table.items.isEmpty }
        let actions = ItemActions(loader: loader, saveFolder: folder.path, browser: browser, insideTmux: false,
                                  sendToTerminal: sent)
        return (table, waiter, actions)
    }

    /// `startedTable` with the detail pane open on the first item.
    func tableWithPane(sent: @escaping @MainActor ([UInt8]) -> Void = { _ in }, browser: BrowserLauncher = .init(environment: [:]))
        async -> (TableController, ChangeWaiter, ItemActions) {
        let (table, waiter, actions) = await startedTable(sent: sent, browser: browser)
        press(.enter, table, actions)
        return (table, waiter, actions)
    }

    func press(_ key: Key, _ table: TableController, _ actions: ItemActions) {
        _ = KeyBindings.handle(.key(key), table: table, terminalSize: .init(columns: 80, rows: 24), actions: actions)
    }

    @Test func wSavesTheOriginalAndTheStatusLineNamesTheFile() async throws {
        let (table, waiter, actions) = await tableWithPane()
        press(.character("w"), table, actions)
        #expect(await waiter.until { table.status?.hasPrefix("saved") == true })
        let path = folder.appendingPathComponent("0.png").path
        #expect(table.status == "saved the image as \(path) (\("http://127.0.0.1/images/0.png".utf8.count) bytes)")
        #expect(contents("0.png") == Array("http://127.0.0.1/images/0.png".utf8))
        press(.character("w"), table, actions)
        #expect(await waiter.until { table.status?.contains("0-1.png") == true })
    }

    @Test func capitalWSavesThePictureAsShownOnceItIsShown() async throws {
        let (table, waiter, actions) = await tableWithPane()
        press(.character("W"), table, actions)
        #expect(table.status == "nothing saved: the picture is not shown yet")
        _ = table.nextFrame()
        await waiter.until { if case .loaded = table.detail?.image { true } else { false } }
        press(.character("W"), table, actions)
        #expect(await waiter.until { table.status?.hasPrefix("saved the picture") == true })
        guard case .loaded(let picture) = table.detail?.image else { return }
        // The fake's pictures have no colours: plain text.
        #expect(contents("0.txt") == picture.plainUTF8)
    }

    /// `w`, `W` and `d` in the list act on the selected row as they do in the detail pane.
    @Test func wCapitalWAndDActOnTheSelectedRowInTheList() async throws {
        let loader = OriginalsLoader()
        let (table, waiter, actions) = await startedTable(loader: loader)
        press(.down, table, actions)
        _ = table.nextFrame()
        #expect(await waiter.until { if case .loaded = table.selectedThumbnail { true } else { false } })
        press(.character("w"), table, actions)
        #expect(await waiter.until { table.status?.hasPrefix("saved the image") == true })
        #expect(contents("1.png") == Array("http://127.0.0.1/images/1.png".utf8))
        press(.character("W"), table, actions)
        #expect(await waiter.until { table.status?.hasPrefix("saved the picture") == true })
        guard case .loaded(let picture) = table.selectedThumbnail else { return }
        #expect(contents("1.txt") == picture.plainUTF8, "the row's thumbnail as drawn")
        press(.character("d"), table, actions)
        #expect(table.status == "removed the image from the memory and disk caches; r fetches it again")
        #expect(loader.inner.removed == [URL(string: "http://127.0.0.1/images/1.png")!])
        #expect(table.detail == nil, "all in the list")
    }

    /// Inside tmux, `y` says what tmux does with the copy, as tmux's settings say.
    @Test func yInsideTmuxSaysWhatTmuxDoesWithTheCopy() async throws {
        let url = "http://127.0.0.1/images/0.png"
        for (settings, said) in [
            (TmuxClipboard(setClipboard: "external", allowPassthrough: "off"),
             "not copied: tmux's set-clipboard is external, which ignores programs; tmux set -g set-clipboard on lets y copy: \(url)"),
            (TmuxClipboard(setClipboard: "on", allowPassthrough: "off"),
             "copied the image URL (OSC 52 through tmux, which keeps it as a paste buffer too): \(url)"),
            (TmuxClipboard(setClipboard: "external", allowPassthrough: "on"),
             "copied the image URL (OSC 52 through tmux's allow-passthrough): \(url)"),
            (nil, "sent the image URL with OSC 52, but tmux did not say whether it passes it on "
                + "(tmux set -g set-clipboard on does): \(url)"),
        ] as [(TmuxClipboard?, String)] {
            let loader = OriginalsLoader()
            let table = TableController(source: FakeItemSource(count: 5), loader: loader)
            let waiter = ChangeWaiter(table)
            table.resize(columns: 80, rows: 24)
            table.start()
            await waiter.until { !table.items.isEmpty }
            var sent: [[UInt8]] = []
            let actions = ItemActions(loader: loader, saveFolder: folder.path, browser: .init(environment: [:]),
                                      insideTmux: true, askTmux: { settings }, sendToTerminal: { sent.append($0) })
            press(.character("y"), table, actions)
            #expect(sent == [Clipboard.sequence(copying: url, insideTmux: true)])
            #expect(await waiter.until { table.status == said }, "\(String(describing: table.status))")
        }
    }

    @Test func yCopiesThePageURLWithOSC52AndSaysWhich() async throws {
        var sent: [[UInt8]] = []
        let (table, _, actions) = await tableWithPane(sent: { sent.append($0) })
        press(.character("y"), table, actions)
        #expect(sent == [Clipboard.osc52("http://127.0.0.1/images/0.png")])
        #expect(table.status == "copied the image URL (OSC 52): http://127.0.0.1/images/0.png")
    }

    // MARK: Links and the clipboard's bytes

    @Test func thePageIsPreferredAndOnlyHTTPURLsPass() {
        var item = Item(id: "1", title: "t", fields: [Item.Field("Record", "https://api.example/1", link: .record),
                                                      Item.Field("Abstract URL", "https://en.example/wiki/T",
                                                                 link: .page)],
                        imageURL: URL(string: "https://img.example/t.jpg"))
        #expect(ItemLink.of(item) == .success(ItemLink(kind: "page", url: "https://en.example/wiki/T")))
        // A URL in a field the source did not mark as a page is not one, whatever its label says.
        item.fields = [Item.Field("Homeworld", "https://api.example/planets/14/"),
                       Item.Field("Page", "https://api.example/species/3/", link: .record),
                       Item.Field("Web page", "https://en.example/wiki/W", link: .image)]
        #expect(ItemLink.of(item) == .success(ItemLink(kind: "image", url: "https://img.example/t.jpg")))
        item.fields = []
        #expect(ItemLink.of(item) == .success(ItemLink(kind: "image", url: "https://img.example/t.jpg")))
        item.imageURL = URL(string: "file:///home/me/cat.png")
        #expect(ItemLink.of(item) == .failure(.notHTTP(scheme: "file")))
        item.imageURL = nil
        #expect(ItemLink.of(item) == .failure(.noURL))
        #expect(ItemLink.checked("javascript:alert(1)") == .failure(.notHTTP(scheme: "javascript")))
        #expect(ItemLink.checked("http://h/a\u{1B}]0;x\u{07}") == .failure(.malformed))
        #expect(ItemLink.checked("http://h/a b") == .failure(.malformed))
        #expect(ItemLink.checked("http:///nohost") == .failure(.malformed))
    }

    /// An item of the user's own files: the file itself, its path's exact bytes (not UTF-8 here); a `file:` link from
    /// a server stays refused, and a page the source names still comes first.
    @Test func aLocalItemIsItsFileAndAServersFileLinkIsRefused() {
        let path = LocalPath(bytes: Array("/home/me/caf".utf8) + [0xE9] + Array(" 1.png".utf8))
        var item = Item(id: "1", title: "t", imageURL: path.fileURL)
        let link = ItemLink.of(item, localFiles: true)
        #expect(link == .success(ItemLink(kind: "file", url: "/home/me/caf\\xE9 1.png", path: path)))
        #expect((try? link.get())?.copied == path.bytes)
        #expect((try? link.get())?.caution == nil)
        #expect(ItemLink.of(item, localFiles: false) == .failure(.notHTTP(scheme: "file")))
        let broken = LocalPath(bytes: Array("/tmp/a\nrm -rf ~.png".utf8))
        item.imageURL = broken.fileURL
        #expect((try? ItemLink.of(item, localFiles: true).get())?.copied == nil, "a line break is never copied")
        item.fields = [Item.Field("Page", "https://en.example/wiki/T", link: .page)]
        #expect(ItemLink.of(item, localFiles: true) == .success(ItemLink(kind: "page", url: "https://en.example/wiki/T")))
    }

    /// A host not in plain ASCII (a Cyrillic а for a Latin a, in any place, with a port or a path) is said, with the
    /// ASCII form the browser reaches; a user part is said; a plain URL says nothing.
    @Test func aHostNotInPlainASCIIOrAUserPartIsSaid() {
        let lookAlikes = ["https://\u{0430}pple.com/", "http://\u{0430}pple.com:8080/x?q=1", "https://www.\u{0430}pple.com",
                          "https://\u{0430}pple.com#top"]
        for url in lookAlikes {
            let caution = ItemLink(kind: "page", url: url).caution
            #expect(caution?.contains("its host is not plain ASCII: it is ") == true, "\(url): \(String(describing: caution))")
            #expect(caution?.contains("xn--pple-43d.com") == true, "\(url): \(String(describing: caution))")
        }
        for url in ["https://bank.example@evil.example/", "http://a:b@h.example/", "https://user@\u{0430}pple.com/"] {
            let caution = ItemLink(kind: "page", url: url).caution
            #expect(caution?.contains("it has a user part (") == true, "\(url): \(String(describing: caution))")
        }
        for url in ["https://en.example/wiki/Caf%C3%A9", "https://h.example/\u{0430}", "http://xn--pple-43d.com/"] {
            #expect(ItemLink(kind: "page", url: url).caution == nil, "\(url)")
        }
    }

    @Test func osc52IsBase64AndInsideTmuxAlsoWrappedWithEveryEscapeDoubled() {
        let plain = Clipboard.osc52("hi")
        #expect(plain == Array("\u{1B}]52;c;aGk=\u{07}".utf8))
        let tmux = Clipboard.sequence(copying: "hi", insideTmux: true)
        #expect(tmux == plain + Array("\u{1B}Ptmux;\u{1B}\u{1B}]52;c;aGk=\u{07}\u{1B}\\".utf8))
    }

    // MARK: The browser

    @Test func browserCommandComesFromBROWSERElseXdgOpen() {
        #expect(BrowserLauncher(environment: [:]).arguments(for: "http://a/") == ["xdg-open", "http://a/"])
        #expect(BrowserLauncher(environment: ["BROWSER": "firefox --new-tab:lynx"]).arguments(for: "http://a/")
                == ["firefox", "--new-tab", "http://a/"])
        #expect(BrowserLauncher(environment: ["BROWSER": "w3m %s -dump"]).arguments(for: "http://a/")
                == ["w3m", "http://a/", "-dump"])
        let path = LocalPath(bytes: Array("/p/".utf8) + [0xFF])
        #expect(BrowserLauncher(environment: [:]).arguments(for: path) == [Array("xdg-open".utf8), path.bytes])
        #expect(BrowserLauncher(environment: ["BROWSER": "view --file=%s"]).arguments(for: path)
                == [Array("view".utf8), Array("--file=".utf8) + path.bytes])
    }

    @Test func oStartsTheBrowserDetachedWithTheURLAsOneArgument() async throws {
        let script = folder.appendingPathComponent("browser.sh")
        let record = folder.appendingPathComponent("argv.txt")
        // Records its arguments, one a line, and whether it leads a session of its own (its session id is its pid).
        try """
            #!/bin/sh
            for a in "$@"; do printf '%s\\n' "$a"; done > \(record.path).part
            [ "$(cut -d' ' -f6 /proc/$$/stat)" = "$$" ] && echo own-session >> \(record.path).part
            mv \(record.path).part \(record.path)
            """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        // Run by sh rather than exec'd: a file just written cannot be exec'd while another test's child, started in
        // between, still holds its descriptor (ETXTBSY).
        let launcher = BrowserLauncher(environment: ["BROWSER": "sh \(script.path)"])
        let status = await withCheckedContinuation { continuation in
            do {
                try launcher.open("http://127.0.0.1/a?b=c d") { continuation.resume(returning: $0) }
            } catch {
                Issue.record("not started: \(error)")
                continuation.resume(returning: -1)
            }
        }
        #expect(status == 0)
        let lines = try String(contentsOf: record, encoding: .utf8).split(separator: "\n")
        #expect(lines == ["http://127.0.0.1/a?b=c d", "own-session"])
    }

    @Test func aMissingBrowserSaysWhatToDo() {
        #expect(throws: BrowserLauncher.Failure.self) {
            try BrowserLauncher(environment: ["BROWSER": "/no/such/browser"]).open("http://a/") { _ in }
        }
    }
}
