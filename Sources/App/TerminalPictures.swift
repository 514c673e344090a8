import Cells
import Codecs
import FoundationEssentials
import Graphics
import Pipeline
import Pixels
import Table

/// The one place that puts pictures in pixels on the terminal over their text art: the list's and the grid's
/// thumbnails and the detail pane's picture (and its animation's frames, `PaneAnimationPictures`), in sixel, iTerm2
/// images or kitty direct placements (`PictureProtocol` says how).
/// Kitty's Unicode placeholders are text cells and go another way (`TerminalImages`).
///
/// After each update the App hands it the pictures the frame model shows (`TableController.screenPictures`): who
/// each is for, its URL and its footprint. Before the frame's text is drawn it says which lines to repaint (a picture
/// that left its place, whose pixels only text written over them erases) and removes the placements that left;
/// after the text it sends each wanted picture that is ready and not on screen at that place, so a late picture
/// can only land where the current frame wants it, for the binding that wants it. Each picture is fetched and
/// encoded once per pixel size and kept (least recently used out, by bytes), so showing it again sends, never
/// encodes. An idle screen sends nothing; while the rows fly past nothing is sent or fetched.
@MainActor
final class TerminalPictures {
    /// A picture at a pixel size: what one encoding is for.
    struct Key: Hashable {
        var url: URL
        var box: PixelSize
    }

    private struct Kept {
        var picture: EncodedPicture
        var lastUse: UInt64
    }

    private struct Shown {
        var picture: ScreenPicture
        var key: Key
    }

    /// The most bytes of encoded pictures kept to send again: about ten screens of large sixel thumbnails.
    static let maxBytes = 64 << 20
    /// The most pictures kept: kitty holds each one's pixels unpacked, and must never drop one on its own (its
    /// quota is 320 MB); 400 thumbnails of 240x240 are 92 MB.
    static let maxPictures = 400

    private let form: any PictureProtocol
    private var cellPixels: CellPixelSize
    /// Fetches the picture fitted into a pixel box; nil when it failed.
    private let fetch: @MainActor (URL, PixelSize) async -> Bitmap?
    private let send: @MainActor ([UInt8]) -> Void
    /// Called when a picture is ready to be sent, or one was rejected: the screen must be drawn again.
    var onChange: (@MainActor () -> Void)?

    private var kept: [Key: Kept] = [:]
    private var keptBytes = 0
    private var loads: [Key: Task<Void, Never>] = [:]
    /// Pictures that cannot be shown in pixels (failed, or the terminal rejected them): their text art stays.
    private var rejected: Set<Key> = []
    private var shown: [PictureOwner: Shown] = [:]
    /// What the frame being drawn wants, and whether the rows fly past (nothing is sent then).
    private var wanted: [ScreenPicture] = []
    /// The same by owner (an owner's first picture, should one be listed twice).
    private var wantedByOwner: [PictureOwner: ScreenPicture] = [:]
    private var flying = false
    /// Set when placements may have moved with the text (rows moved): after the frame each is placed again.
    private var placeAgain = false
    private var clock: UInt64 = 0
    private var nextID: UInt32 = 1
    /// The detail pane's animation, when its frames play in pixels.
    private let paneAnimation = PaneAnimationPictures()

    /// Bytes written for pictures, and encodings made: for the tests and the measurements.
    private(set) var bytesSent = 0
    private(set) var encodings = 0

    init(form: any PictureProtocol, cellPixels: CellPixelSize,
         fetch: @escaping @MainActor (URL, PixelSize) async -> Bitmap?, send: @escaping @MainActor ([UInt8]) -> Void) {
        self.form = form
        self.cellPixels = cellPixels
        self.fetch = fetch
        self.send = send
    }

    /// Before the frame's text is drawn: takes what the frame shows, removes the placements that left their place
    /// and returns the lines whose pictures must be erased by repainting them.
    func frameWill(show pictures: [ScreenPicture], flying: Bool) -> [Range<Int>] {
        wanted = pictures
        self.flying = flying
        wantedByOwner = [:]
        for picture in pictures where wantedByOwner[picture.owner] == nil { wantedByOwner[picture.owner] = picture }
        let byOwner = wantedByOwner
        write(paneAnimation.frameWill(want: byOwner[.pane], form: form, placement: placement(of: .pane)))
        let wantedKeys = Set(pictures.compactMap(key(for:)))
        for (key, task) in loads where !wantedKeys.contains(key) {
            task.cancel()
            loads[key] = nil
        }
        let leaving = misplaced
        guard !leaving.isEmpty else { return [] }
        placeAgain = true
        if form.erasedByRepaint {
            // Every line with pixels on it is repainted, those that stay too: curses may scroll a region to move
            // rows (its hash of the lines it believes on screen), and pixels move with the scrolled text. A
            // repainted line's old content is unknown to curses, so whatever moves onto it is rewritten, which
            // erases it; the pictures that stay are sent again after the frame.
            // Curses' repaint alone is not enough: it writes a run of blanks as "erase to the end of the line" or
            // skips them, which xterm does not take as text written over a picture (a grid's pane picture stayed
            // between two thumbnails after Esc). So the pictures' cells are first written over with spaces here.
            let footprints = shown.values.map(\.picture.footprint)
            write(Self.blanks(over: footprints))
            shown.removeAll()
            return footprints.map(\.lines)
        }
        var bytes: [UInt8] = []
        for (owner, old) in leaving {
            shown[owner] = nil
            if let next = byOwner[owner], key(for: next) == old.key, !flying {
                continue  // placed again at its new place after the frame: the same ids move it
            }
            if let entry = kept[old.key] { bytes += form.remove(entry.picture, placement: placement(of: owner)) }
        }
        write(bytes)
        return []
    }

    /// After the frame's text is drawn: sends each wanted picture that is ready and not on screen at its place,
    /// and starts fetching the others. Sends nothing while the rows fly past.
    func frameDrawn() {
        guard !flying else { return }
        var bytes: [UInt8] = []
        // Curses may have moved the text by scrolling a region, and kitty's placements with it: after a frame that
        // moved pictures, each is placed again where it is wanted (the same ids move it).
        if placeAgain, !form.erasedByRepaint { shown.removeAll() }
        placeAgain = false
        for picture in wanted where shown[picture.owner] == nil {
            guard let key = key(for: picture), !rejected.contains(key) else { continue }
            guard let entry = use(key) else {
                load(key, footprint: picture.footprint)
                continue
            }
            bytes += form.show(entry, at: picture.footprint, placement: placement(of: picture.owner))
            shown[picture.owner] = Shown(picture: picture.firstFrame, key: key)
        }
        bytes += paneAnimationFrame()
        bytes += evictIfNeeded()
        write(bytes)
    }

    /// After `frameDrawn`: the pictures on screen that the frame does not want where they are (another URL, another
    /// place, or an owner the frame no longer shows). Cannot happen while pictures are placed only from the frame's
    /// wants and removed before the text moves; counted with the text art's `wrong_paints` so tests and
    /// `--stats-file` can prove it.
    var wrongPictures: Int { misplaced.count }

    /// The pictures on screen that the frame does not want where they are: before the frame, those that leave.
    private var misplaced: [PictureOwner: Shown] {
        shown.filter { owner, old in !(wantedByOwner[owner]?.isAtPlace(of: old.picture) ?? false) }
    }

    /// Every cell was repainted (a resize, a resume): no sixel or iTerm2 picture is left on screen; kitty's
    /// placements are placed again where the next frame wants them.
    func screenRepainted() {
        if form.erasedByRepaint { shown.removeAll() } else { placeAgain = true }
    }

    /// The screen is given back (exit, Ctrl-Z): the terminal forgets every image (kitty keeps them per screen);
    /// pictures are sent again on resume.
    func leaveScreen() {
        var bytes: [UInt8] = []
        for (owner, old) in shown {
            if let entry = kept[old.key] { bytes += form.remove(entry.picture, placement: placement(of: owner)) }
        }
        for entry in kept.values { bytes += form.forget(entry.picture) }
        bytes += paneAnimation.end(form: form, placement: placement(of: .pane))
        shown.removeAll()
        write(bytes)
    }

    /// The cells changed size in pixels: every picture is fetched and encoded again for the new size.
    func cellPixelsChanged(to size: CellPixelSize) {
        guard size != cellPixels else { return }
        leaveScreen()
        cancel()
        cellPixels = size
        kept.removeAll()
        keptBytes = 0
        rejected.removeAll()
    }

    /// An answer from the terminal: an error for one of our images makes its picture text art for good.
    func handle(_ response: KittyResponse) {
        guard !response.isOK, let key = kept.first(where: { $0.value.picture.id == response.imageID })?.key else {
            return
        }
        rejected.insert(key)
        var bytes: [UInt8] = []
        for (owner, old) in shown where old.key == key {
            shown[owner] = nil
            bytes += form.remove(kept[key]!.picture, placement: placement(of: owner))
        }
        bytes += form.forget(kept[key]!.picture)
        keptBytes -= kept[key]!.picture.bytes.count
        kept[key] = nil
        write(bytes)
        onChange?()
    }

    /// Stops every fetch under way.
    func cancel() {
        for task in loads.values { task.cancel() }
        loads.removeAll()
    }

    /// Returns once the fetches and encodings under way have ended: for the tests.
    func loadsFinished() async {
        for task in Array(loads.values) { await task.value }
    }

    /// The pictures on screen now, by owner: for the tests.
    var onScreen: [PictureOwner: ScreenPicture] { shown.mapValues(\.picture) }

    // MARK: Encodings

    private func key(for picture: ScreenPicture) -> Key? {
        form.box(for: picture.footprint, cell: cellPixels).map { Key(url: picture.url, box: $0) }
    }

    /// A placement id per owner: the slot's (its binding is told apart by the image and the place), or the pane's.
    private func placement(of owner: PictureOwner) -> UInt32 {
        switch owner {
        case .slot(let id, _): UInt32(truncatingIfNeeded: id + 1)
        case .pane: 0xFFFF
        }
    }

    private func use(_ key: Key) -> EncodedPicture? {
        guard kept[key] != nil else { return nil }
        clock += 1
        kept[key]!.lastUse = clock
        return kept[key]!.picture
    }

    private func load(_ key: Key, footprint: PictureFootprint) {
        guard loads[key] == nil else { return }
        let id = newID()
        let (form, fetch) = (self.form, self.fetch)
        loads[key] = Task { [weak self] in
            guard let bitmap = await fetch(key.url, key.box), !Task.isCancelled else {
                if !Task.isCancelled { self?.failed(key) }
                return
            }
            // Encoding takes milliseconds of CPU: off the main actor.
            let bytes = await Task.detached { form.encode(bitmap, footprint: footprint, id: id) }.value
            guard let self, !Task.isCancelled else { return }
            self.loads[key] = nil
            guard let bytes else { return self.failed(key) }
            self.encodings += 1
            self.clock += 1
            self.kept[key] = Kept(picture: EncodedPicture(id: id, bytes: bytes), lastUse: self.clock)
            self.keptBytes += bytes.count
            self.onChange?()
        }
    }

    /// An id for the terminal, unique among those it holds (kitty's direct placements: the high byte is 0).
    private func newID() -> UInt32 {
        defer { nextID = nextID == 0xFF_FFFF ? 1 : nextID + 1 }
        return nextID
    }

    private func failed(_ key: Key) {
        loads[key] = nil
        rejected.insert(key)
    }

    /// Forgets the least recently used pictures not on screen while more than `maxBytes` or `maxPictures` are kept.
    private func evictIfNeeded() -> [UInt8] {
        guard keptBytes > Self.maxBytes || kept.count > Self.maxPictures else { return [] }
        let onScreen = Set(shown.values.map(\.key))
        var bytes: [UInt8] = []
        let oldestFirst = kept.filter { !onScreen.contains($0.key) }.sorted { $0.value.lastUse < $1.value.lastUse }
        for (key, entry) in oldestFirst {
            guard keptBytes > Self.maxBytes || kept.count > Self.maxPictures else { break }
            bytes += form.forget(entry.picture)
            keptBytes -= entry.picture.bytes.count
            kept[key] = nil
        }
        return bytes
    }

    private func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytesSent += bytes.count
        send(bytes)
    }
}

// MARK: The detail pane's animation

extension TerminalPictures {
    /// The frames of the pane's animated picture at `url` in pixels, for the pane's player: fitted as its still picture
    /// at `cells` (its text art's) is, encoded for the protocol; nil when no picture can be drawn at that size.
    func paneAnimationFrames(_ source: AnimationSource, url: URL, cells: CellSize) -> (any AnimationFrameSource)? {
        let footprint = PictureFootprint(x: 0, y: 0, columns: cells.columns, rows: cells.rows)
        guard let box = form.box(for: footprint, cell: cellPixels) else { return nil }
        let id = newID()
        let ended = paneAnimation.start(id: id, url: url, form: form, placement: placement(of: .pane))
        // An animation before it took the still picture's place (kitty) and has gone: the still is placed again.
        if !ended.isEmpty { shown[.pane] = nil }
        write(ended)
        return PanePixelFrames(source, box: box, footprint: footprint, id: id, form: form) {
            [weak self] number, frame in
            guard let self else { return }
            self.write(self.paneAnimation.arrived(frame, number: number, of: id))
        }
    }

    /// After the frame's text: the pane's animation frame due, over its picture on screen.
    private func paneAnimationFrame() -> [UInt8] {
        guard let wanted = wantedByOwner[.pane], let onScreen = shown[.pane], onScreen.picture.isAtPlace(of: wanted),
              let bytes = paneAnimation.show(wanted, onScreen: onScreen.picture, still: kept[onScreen.key]?.picture,
                                             form: form, placement: placement(of: .pane)) else { return [] }
        shown[.pane]?.picture.frame = wanted.frame
        return bytes
    }
}

extension TerminalPictures {
    /// Spaces in the default colours over every cell of `footprints`: text written over a sixel or iTerm2 picture's
    /// cells is what erases it. The cursor and its colours are saved before (DECSC) and restored after (DECRC), so
    /// curses' idea of both stays true; the lines are then repainted by curses with what they hold.
    static func blanks(over footprints: [PictureFootprint]) -> [UInt8] {
        guard !footprints.isEmpty else { return [] }
        var bytes = Array("\u{1B}7\u{1B}[0m".utf8)
        for footprint in footprints where footprint.columns > 0 {
            for line in footprint.lines {
                bytes += Array("\u{1B}[\(line + 1);\(footprint.x + 1)H".utf8)
                bytes += [UInt8](repeating: 0x20, count: footprint.columns)
            }
        }
        return bytes + Array("\u{1B}8".utf8)
    }
}

extension PictureFootprint {
    /// The screen lines it covers.
    var lines: Range<Int> { y..<(y + rows) }
}
