import Cells
import Codecs
import FoundationEssentials
import Graphics
import Pipeline
import Pixels
import Table

/// The kitty images the terminal holds for the table's thumbnails: their ids, their uploads, which to delete when
/// the terminal holds too many, and the deletes at a suspend and at exit.
///
/// An image is a picture fitted to a grid of cells; it is uploaded once, as a virtual placement (`a=T,U=1`) sized
/// to that grid, and shown by placeholder cells that carry its id. Scrolling back to a row whose image the terminal
/// holds sends nothing; an idle screen sends nothing. Uploads are written between frames, whole (the protocol lets
/// no other graphics command interleave with an upload's chunks), before the frame that draws their cells.
@MainActor
final class TerminalImages: PixelPictures {
    /// A picture at a size, for cells of a size in pixels: what one image holds.
    struct Key: Hashable {
        var url: URL
        var grid: CellSize
        var cells: CellPixelSize
    }

    private struct Held {
        var image: ShownImage
        var bytes: Int
        var lastUse: UInt64
    }

    /// The most pixel bytes the terminal is asked to hold: about ten screens of large thumbnails, far below kitty's
    /// 320 MB quota, so the terminal never has to drop one on its own.
    static let maxBytes = 96 << 20
    /// The most images: about ten screens of thumbnails; in 256 colours fewer than the 240 ids there are.
    private var maxImages: Int { form == .direct ? 400 : 200 }

    private let pipeline: ImagePipeline
    private var cellPixels: CellPixelSize
    private let form: KittyPlaceholder.ColorForm
    private let insideTmux: Bool
    private let send: @MainActor ([UInt8]) -> Void
    /// Called when an image left the terminal by its own doing (rejected): the screen must be drawn again.
    var onChange: (@MainActor () -> Void)?

    private var held: [Key: Held] = [:]
    private var keyForID: [UInt32: Key] = [:]
    /// Pictures the terminal rejected: they stay text art.
    private var rejected: Set<Key> = []
    private var onScreenIDs: Set<UInt32> = []
    private var heldBytes = 0
    private var clock: UInt64 = 0
    private var nextLowID: UInt32
    /// The id's high byte, drawn at random per run (1...255), carried by the third diacritic: another program's
    /// images in the same terminal (or a run before this one) are unlikely to share ids with ours.
    private let highByte: UInt32

    /// Bytes written to the terminal for images, for the measurements in the README.
    private(set) var bytesSent = 0
    private(set) var uploads = 0

    init(pipeline: ImagePipeline, cellPixels: CellPixelSize, form: KittyPlaceholder.ColorForm, insideTmux: Bool,
         send: @escaping @MainActor ([UInt8]) -> Void) {
        self.pipeline = pipeline
        self.cellPixels = cellPixels
        self.form = form
        self.insideTmux = insideTmux
        self.send = send
        highByte = UInt32.random(in: 1...255)
        // 24-bit ids start at 256, so none is sent as a palette index; 256-colour ids skip the 16 ANSI colours,
        // whose SGR forms (30-37, 90-97) are not the `38;5;n` the protocol reads.
        nextLowID = form == .direct ? 256 : 16
    }

    // MARK: PixelPictures

    func picture(of url: URL, grid: CellSize) -> PixelPicture {
        let key = Key(url: url, grid: grid, cells: cellPixels)
        if rejected.contains(key) { return .unavailable }
        if let image = use(key) { return .ready(image) }
        guard (1...KittyPlaceholder.maxIndex + 1).contains(grid.columns),
              (1...KittyPlaceholder.maxIndex + 1).contains(grid.rows) else { return .unavailable }
        let box = PictureCeiling.box(width: grid.columns * cellPixels.width, height: grid.rows * cellPixels.height)
        let load = pipeline.pixels(ImagePipeline.PixelRequest(url: url, box: PixelSize(width: box.width,
                                                                                       height: box.height)))
        return .pending { [weak self] in
            guard let bitmap = try? await load.value(), !Task.isCancelled, let self else { return nil }
            return self.upload(bitmap, as: key)
        }
    }

    func holds(_ image: ShownImage) -> Bool {
        keyForID[image.id] != nil
    }

    func onScreen(_ images: [ShownImage]) {
        onScreenIDs = Set(images.map(\.id))
    }

    // MARK: Terminal events

    /// An answer from the terminal: an error for one of our images makes its picture text art for good.
    func handle(_ response: KittyResponse) {
        guard !response.isOK, let key = keyForID[response.imageID] else { return }
        rejected.insert(key)
        forget(key)
        onChange?()
    }

    /// Deletes every image from the terminal: before curses gives the screen back (at exit, on Ctrl-Z), while the
    /// alternate screen that holds them is still up. Rows showing them go back to text art until sent again.
    func deleteAll() {
        var bytes: [UInt8] = []
        for id in keyForID.keys.sorted() { bytes += prepare(KittyCommands.delete(id: id)) }
        write(bytes)
        held.removeAll()
        keyForID.removeAll()
        heldBytes = 0
    }

    /// The terminal's cells changed size in pixels (a font size change): every image, sized for the old cells, is
    /// deleted, and the rows on screen ask for new ones at the new size.
    func cellPixelsChanged(to size: CellPixelSize) {
        guard size != cellPixels else { return }
        cellPixels = size
        generation += 1
        deleteAll()
        onChange?()
    }

    private(set) var generation = 0

    // MARK: Uploads

    private func use(_ key: Key) -> ShownImage? {
        guard held[key] != nil else { return nil }
        clock += 1
        held[key]!.lastUse = clock
        return held[key]!.image
    }

    private func upload(_ bitmap: Bitmap, as key: Key) -> ShownImage? {
        // Fetched for cells of another size (the font changed meanwhile): not sent, and asked for again.
        if rejected.contains(key) || key.cells != cellPixels { return nil }
        if let image = use(key) { return image }
        guard let id = newID() else { return nil }
        let image = ShownImage(id: id, cells: KittyPlaceholder.cells(imageID: id, columns: key.grid.columns,
                                                                     rows: key.grid.rows, form: form))
        var bytes: [UInt8] = []
        for command in KittyCommands.upload(bitmap, id: id, columns: key.grid.columns, rows: key.grid.rows) {
            bytes += prepare(command)
        }
        write(bytes)
        uploads += 1
        clock += 1
        held[key] = Held(image: image, bytes: bitmap.pixels.count, lastUse: clock)
        keyForID[id] = key
        heldBytes += bitmap.pixels.count
        evictIfNeeded()
        return image
    }

    /// Deletes the least recently used images not on screen while the terminal holds too many.
    private func evictIfNeeded() {
        guard held.count > maxImages || heldBytes > Self.maxBytes else { return }
        let candidates = held.filter { !onScreenIDs.contains($0.value.image.id) }
            .sorted { $0.value.lastUse < $1.value.lastUse }
        var bytes: [UInt8] = []
        for (key, entry) in candidates {
            guard held.count > maxImages || heldBytes > Self.maxBytes else { break }
            bytes += prepare(KittyCommands.delete(id: entry.image.id))
            forget(key)
        }
        write(bytes)
    }

    private func forget(_ key: Key) {
        guard let entry = held.removeValue(forKey: key) else { return }
        keyForID[entry.image.id] = nil
        heldBytes -= entry.bytes
    }

    /// A fresh id in the colour form's range, or nil when every id of the run is used (never in practice: 16
    /// million in 24-bit colour, 240 in 256 colours, reused once their images are deleted).
    private func newID() -> UInt32? {
        let span: UInt32 = form == .direct ? 0xFF_FFFF - 256 : 240
        for _ in 0..<span {
            let low = nextLowID
            nextLowID = form == .direct ? (low >= 0xFF_FFFF ? 256 : low + 1) : (low >= 255 ? 16 : low + 1)
            let id = highByte << 24 | low
            if keyForID[id] == nil { return id }
        }
        return nil
    }

    private func prepare(_ command: [UInt8]) -> [UInt8] {
        TmuxPassthrough.prepare(command, insideTmux: insideTmux)
    }

    private func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytesSent += bytes.count
        send(bytes)
    }
}
