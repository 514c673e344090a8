import Cells
import Codecs
import FoundationEssentials
import Graphics
import Pipeline
import Pixels
import Table

/// The one place that puts pictures in pixels on the terminal: the list's and the grid's thumbnails and the detail
/// pane's picture (and its animation's frames, `PaneAnimationPictures`), in sixel, iTerm2 images or kitty direct
/// placements over their text art, or as kitty's Unicode placeholders in its place (`PictureProtocol` says how: one
/// form for the thumbnails, one for the pane).
///
/// After each update the App hands it the pictures the frame model shows (`TableController.screenPictures`): who
/// each is for, its URL and its footprint. Before the frame's text is drawn it says which lines to repaint (a picture
/// that left its place, whose pixels only text written over them erases) and removes the placements that left;
/// after the text it sends each wanted picture that is ready and not on screen at that place, so a late picture
/// can only land where the current frame wants it, for the binding that wants it. Pictures that are text cells
/// (`CellPictures`) are uploaded before the text instead, and the frame draws their cells (`cells`). Each picture
/// is fetched and encoded once per size and kept (`KeptPictures`), so showing it again sends, never encodes. An
/// idle screen sends nothing; while the rows fly past nothing is sent or fetched.
/// Its state is internal rather than private only so that its extensions (`+Cells`, `+PaneAnimation`) can read it:
/// nothing else touches it.
@MainActor
final class TerminalPictures {
    /// Whose pictures a form draws: the list's and the grid's thumbnails, or the detail pane's (its still picture,
    /// or its animation's frames).
    enum Role: Hashable { case thumbnail, pane, animation }

    /// A picture at a pixel size over a grid of cells, for one role: what one encoding is for (or, for the pane's
    /// animation, what its id is taken for).
    struct Key: Hashable {
        var url: URL
        var box: PixelSize
        var grid: CellSize
        var role: Role
    }

    struct Shown {
        var picture: ScreenPicture
        var key: Key
    }

    /// The most bytes of encoded pictures kept to send again: about ten screens of large sixel thumbnails.
    static let maxBytes = 64 << 20
    /// The most pictures kept: kitty holds each one's pixels unpacked, and must never drop one on its own (its
    /// quota is 320 MB); 400 thumbnails of 240x240 are 92 MB. A form may ask for fewer (`PictureProtocol`).
    static let maxPictures = 400

    /// How the thumbnails and the pane's picture are drawn; nil: they stay text art.
    let thumbnailForm: (any PictureProtocol)?
    let paneForm: (any PictureProtocol)?
    /// Whether the forms' pictures stay until text is written over them (sixel, iTerm2).
    private let erasedByRepaint: Bool
    let maxPictures: Int
    var cellPixels: CellPixelSize
    /// Fetches the picture fitted into a pixel box; nil when it failed.
    private let fetch: @MainActor (URL, PixelSize) async -> Bitmap?
    private let send: @MainActor ([UInt8]) -> Void
    /// Called when a picture is ready to be sent, or one was rejected: the screen must be drawn again.
    var onChange: (@MainActor () -> Void)?

    var kept = KeptPictures()
    var loads: [Key: Task<Void, Never>] = [:]
    /// Pictures that cannot be shown in pixels (failed, or the terminal rejected them): their text art stays.
    var rejected: Set<Key> = []
    var shown: [PictureOwner: Shown] = [:]
    /// The pictures on screen as text cells (`CellPictures`), by owner.
    var shownCells: [PictureOwner: Shown] = [:]
    /// What the frame being drawn wants in pixels over its text, and whether the rows fly past (nothing is sent then).
    private var wanted: [ScreenPicture] = []
    /// The same by owner (an owner's first picture, should one be listed twice).
    var wantedByOwner: [PictureOwner: ScreenPicture] = [:]
    var flying = false
    /// Set when placements may have moved with the text (rows moved): after the frame each is placed again.
    private var placeAgain = false

    /// The text cells the frame being drawn shows in place of the text art, by owner (kitty's placeholders): set
    /// by `frameWill`, read by the frame.
    var cells: [PictureOwner: CellBuffer] = [:]
    /// The detail pane's animation, when its frames play in pixels, and the id it was given.
    let paneAnimation = PaneAnimationPictures()
    var animationID: (id: UInt32, key: Key)?

    /// Bytes written for pictures, and encodings made: for the tests and the measurements.
    private(set) var bytesSent = 0
    private(set) var encodings = 0

    /// Draws the thumbnails with `thumbnails` and the pane's picture with `pane` (nil: as text art).
    init(thumbnails: (any PictureProtocol)?, pane: (any PictureProtocol)?, cellPixels: CellPixelSize,
         fetch: @escaping @MainActor (URL, PixelSize) async -> Bitmap?, send: @escaping @MainActor ([UInt8]) -> Void) {
        thumbnailForm = thumbnails
        paneForm = pane
        erasedByRepaint = [thumbnails, pane].contains { $0?.erasedByRepaint == true }
        maxPictures = [thumbnails, pane].compactMap { $0?.maxPictures }.min() ?? Self.maxPictures
        self.cellPixels = cellPixels
        self.fetch = fetch
        self.send = send
    }

    /// Draws every picture with `form`.
    convenience init(form: any PictureProtocol, cellPixels: CellPixelSize,
                     fetch: @escaping @MainActor (URL, PixelSize) async -> Bitmap?,
                     send: @escaping @MainActor ([UInt8]) -> Void) {
        self.init(thumbnails: form, pane: form, cellPixels: cellPixels, fetch: fetch, send: send)
    }

    /// Whether the detail pane's picture is drawn here (else it stays text art).
    var drawsPane: Bool { paneForm != nil }

    /// Before the frame's text is drawn: takes what the frame shows, removes the placements that left their place,
    /// sends what the text cells of pictures need and hands the frame those cells (`cells`), and returns the lines
    /// whose pictures must be erased by repainting them. A picture shown in part (cut by the list's bottom, under
    /// the help) is taken only as text cells.
    func frameWill(show pictures: [ScreenPicture], flying: Bool) -> [Range<Int>] {
        let drawable = pictures.filter { picture in
            form(for: picture.owner).map { $0 is any CellPictures || picture.isWhole } ?? false
        }
        wanted = drawable.filter { !(form(for: $0.owner) is any CellPictures) }
        self.flying = flying
        wantedByOwner = [:]
        for picture in drawable where wantedByOwner[picture.owner] == nil { wantedByOwner[picture.owner] = picture }
        let byOwner = wantedByOwner
        if let paneForm {
            write(paneAnimation.frameWill(want: byOwner[.pane], form: paneForm, placement: placement(of: .pane)))
        }
        let wantedKeys = Set(drawable.compactMap(key(for:)))
        for (key, task) in loads where !wantedKeys.contains(key) {
            task.cancel()
            loads[key] = nil
        }
        showCells(drawable.filter { form(for: $0.owner) is any CellPictures })
        let leaving = misplaced
        guard !leaving.isEmpty else { return [] }
        placeAgain = true
        if erasedByRepaint {
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
            if let entry = kept[old.key] { bytes += entry.form.remove(entry.picture, placement: placement(of: owner)) }
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
        if placeAgain, !erasedByRepaint { shown.removeAll() }
        placeAgain = false
        for picture in wanted where shown[picture.owner] == nil {
            guard let key = key(for: picture), !rejected.contains(key) else { continue }
            guard let entry = kept.use(key) else {
                load(key, footprint: picture.footprint)
                continue
            }
            bytes += entry.form.show(entry.picture, at: picture.footprint, placement: placement(of: picture.owner))
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
    var wrongPictures: Int { misplaced.count + Self.misplaced(shownCells, wanted: wantedByOwner).count }

    /// The pictures on screen that the frame does not want where they are: before the frame, those that leave.
    private var misplaced: [PictureOwner: Shown] { Self.misplaced(shown, wanted: wantedByOwner) }

    /// Those of `shown` that `wanted` does not want where they are (whatever frame of an animation each shows).
    private static func misplaced(_ shown: [PictureOwner: Shown], wanted: [PictureOwner: ScreenPicture])
        -> [PictureOwner: Shown] {
        shown.filter { owner, old in !(wanted[owner]?.isAtPlace(of: old.picture) ?? false) }
    }

    /// Every cell was repainted (a resize, a resume): no sixel or iTerm2 picture is left on screen; kitty's
    /// placements are placed again where the next frame wants them (text cells are repainted as text).
    func screenRepainted() {
        if erasedByRepaint { shown.removeAll() } else { placeAgain = true }
    }

    /// The screen is given back (exit, Ctrl-Z): the terminal forgets every image (kitty keeps them per screen);
    /// pictures are sent again on resume.
    func leaveScreen() {
        var bytes: [UInt8] = []
        for (owner, old) in shown {
            if let entry = kept[old.key] { bytes += entry.form.remove(entry.picture, placement: placement(of: owner)) }
        }
        for entry in kept.all { bytes += entry.form.forget(entry.picture) }
        if let paneForm { bytes += paneAnimation.end(form: paneForm, placement: placement(of: .pane)) }
        shown.removeAll()
        shownCells.removeAll()
        cells.removeAll()
        write(bytes)
    }

    /// The cells changed size in pixels: every picture is fetched and encoded again for the new size.
    func cellPixelsChanged(to size: CellPixelSize) {
        guard size != cellPixels else { return }
        // The pane's animation, made for the old cells, ends with the screen: its pane plays it again (`replay`).
        if paneAnimation.id != nil { paneAnimation.interrupted = true }
        leaveScreen()
        cancel()
        cellPixels = size
        _ = kept.removeAll()
        rejected.removeAll()
    }

    /// An answer from the terminal: an error for one of our images makes its picture text art for good.
    func handle(_ response: KittyResponse) {
        guard !response.isOK, let key = kept.key(ofID: response.imageID), let entry = kept[key] else { return }
        rejected.insert(key)
        var bytes: [UInt8] = []
        for (owner, old) in shown where old.key == key {
            shown[owner] = nil
            bytes += entry.form.remove(entry.picture, placement: placement(of: owner))
        }
        for (owner, old) in shownCells where old.key == key { shownCells[owner] = nil }
        bytes += forget(key)
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
    var onScreen: [PictureOwner: ScreenPicture] { shown.merging(shownCells) { $1 }.mapValues(\.picture) }

    // MARK: Encodings

    func form(for role: Role) -> (any PictureProtocol)? {
        role == .thumbnail ? thumbnailForm : paneForm
    }

    /// A fresh id for `key`'s picture in the one id space (in the range the thumbnails' form carries, which kitty's
    /// placeholders narrow to their colours).
    func newID(for key: Key) -> UInt32? {
        guard let form = thumbnailForm ?? paneForm else { return nil }
        return kept.newID(for: key, in: form, tries: maxPictures + loads.count + 256)
    }

    func form(for owner: PictureOwner) -> (any PictureProtocol)? {
        owner == .pane ? paneForm : thumbnailForm
    }

    func key(for picture: ScreenPicture) -> Key? {
        let footprint = picture.footprint
        return form(for: picture.owner)?.box(for: footprint, cell: cellPixels).map {
            Key(url: picture.url, box: $0, grid: CellSize(columns: footprint.columns, rows: footprint.rows),
                role: picture.owner == .pane ? .pane : .thumbnail)
        }
    }

    /// A placement id per owner: the slot's (its binding is told apart by the image and the place), or the pane's.
    func placement(of owner: PictureOwner) -> UInt32 {
        switch owner {
        case .slot(let id, _): UInt32(truncatingIfNeeded: id + 1)
        case .pane: 0xFFFF
        }
    }

    func load(_ key: Key, footprint: PictureFootprint) {
        guard loads[key] == nil, let form = form(for: key.role), let id = newID(for: key) else { return }
        let fetch = self.fetch
        loads[key] = Task { [weak self] in
            let bitmap = await fetch(key.url, key.box)
            var bytes: [UInt8]?
            if let bitmap, !Task.isCancelled {
                // Encoding takes milliseconds of CPU: off the main actor.
                bytes = await Task.detached { form.encode(bitmap, footprint: footprint, id: id) }.value
            }
            self?.loaded(key, id: id, bytes: bytes, form: form)
        }
    }

    /// A load ended: its encoding is kept, or the picture stays text art (failed), or nothing (cancelled: another
    /// load of the key may be under way).
    private func loaded(_ key: Key, id: UInt32, bytes: [UInt8]?, form: any PictureProtocol) {
        guard !Task.isCancelled, let bytes else {
            kept.release(id, of: key)
            if !Task.isCancelled { failed(key) }
            return
        }
        loads[key] = nil
        encodings += 1
        kept.keep(EncodedPicture(id: id, bytes: bytes), for: key, form: form)
        onChange?()
    }

    private func failed(_ key: Key) {
        loads[key] = nil
        rejected.insert(key)
    }

    /// Forgets a kept picture: the bytes that make the terminal forget it.
    private func forget(_ key: Key) -> [UInt8] {
        kept.forget(key).map { $0.form.forget($0.picture) } ?? []
    }

    /// Forgets the least recently used pictures not on screen while more than `maxBytes` or `maxPictures` are kept.
    private func evictIfNeeded() -> [UInt8] {
        guard kept.bytes > Self.maxBytes || kept.count > maxPictures else { return [] }
        let onScreen = Set(shown.values.map(\.key)).union(shownCells.values.map(\.key))
        var bytes: [UInt8] = []
        for key in kept.oldestFirst(except: onScreen) {
            guard kept.bytes > Self.maxBytes || kept.count > maxPictures else { break }
            bytes += forget(key)
        }
        return bytes
    }

    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytesSent += bytes.count
        send(bytes)
    }
}

