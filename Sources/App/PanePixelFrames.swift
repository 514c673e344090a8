import Cells
import Codecs
import Pipeline
import Pixels
import Table

/// The detail pane's animation in pixels, for its player (`PaneAnimation`): each frame read as the text-art player
/// reads them (the reader holds what the next frame needs, the clock's delays with their 20 ms floor), fitted into
/// the pane picture's pixels as the still picture is, encoded for the terminal's protocol on this actor's turns, off
/// the main actor, and handed to the adapter (`deliver`) before the player shows it.
///
/// A later loop sends what each frame's `again` says (kitty: a few bytes; sixel and iTerm2: the same picture). When
/// every frame's `again` of the first loop fits in `keptBytes`, later loops read and encode nothing; else each frame
/// is read and encoded again as it comes.
actor PanePixelFrames: AnimationFrameSource {
    /// The most bytes of encoded frames kept for later loops.
    static let keptBytes = 16 << 20

    private let source: AnimationSource
    private let box: PixelSize
    private let footprint: PictureFootprint
    private let id: UInt32
    private let form: any PictureProtocol
    private let deliver: @MainActor (_ index: Int, _ frame: AnimationFrameBytes) -> Void
    private var frames: FittedFrames?
    /// Frames read since the player started (0: the first, the still picture on screen).
    private var index = -1
    private var framesPerLoop: Int?
    private var kept: [Int: (again: AnimationFrameBytes.Again, displayTime: Duration)] = [:]
    private var keptSize = 0
    private var keepsAll = true

    init(_ source: AnimationSource, box: PixelSize, footprint: PictureFootprint, id: UInt32,
         form: any PictureProtocol, deliver: @escaping @MainActor (Int, AnimationFrameBytes) -> Void) {
        self.source = source
        self.box = box
        self.footprint = footprint
        self.id = id
        self.form = form
        self.deliver = deliver
    }

    func nextFrame() async throws -> AnimatedCells {
        index += 1
        if let framesPerLoop, keepsAll, let frame = kept[index % framesPerLoop] {
            frames = nil  // every frame is kept: the reader is done
            await deliver(index, AnimationFrameBytes(upload: frame.again.upload, show: frame.again.show))
            return AnimatedCells(cells: CellBuffer(width: 0, height: 0), displayTime: frame.displayTime)
        }
        if frames == nil {
            guard let opened = try source.pixelFrames(in: box) else { throw PipelineAnimationFrames.NotAnimated() }
            frames = opened
        }
        let (bitmap, displayTime) = try frames!.next()
        let firstLoop = framesPerLoop == nil && frames!.framesPerLoop == nil
        framesPerLoop = framesPerLoop ?? frames!.framesPerLoop
        let position = framesPerLoop.map { index % $0 } ?? index
        guard let encoded = form.animationFrame(bitmap, position: position, footprint: footprint, id: id) else {
            throw PipelineAnimationFrames.NotAnimated()
        }
        if firstLoop { keep(encoded, at: position, displayTime: displayTime) }
        let frame = firstLoop ? encoded : encoded.again.map { AnimationFrameBytes(upload: $0.upload, show: $0.show) }
            ?? encoded
        await deliver(index, frame)
        return AnimatedCells(cells: CellBuffer(width: 0, height: 0), displayTime: displayTime)
    }

    /// Keeps a first loop's frame for the later loops, while they all fit.
    private func keep(_ frame: AnimationFrameBytes, at position: Int, displayTime: Duration) {
        guard keepsAll, let again = frame.again, keptSize + again.upload.count + again.show.count <= Self.keptBytes
        else {
            keepsAll = false
            kept.removeAll()
            return
        }
        kept[position] = (again, displayTime)
        keptSize += again.upload.count + again.show.count
    }
}
