import Pipeline
import Table

/// An animated picture's frames from the pipeline, decoded and drawn on this actor's turns, off the main actor.
actor PipelineAnimationFrames: AnimationFrameSource {
    private let source: AnimationSource
    private var frames: RenderedFrames?

    init(_ source: AnimationSource) {
        self.source = source
    }

    func nextFrame() async throws -> AnimatedCells {
        if frames == nil {
            guard let opened = try source.frames() else { throw NotAnimated() }
            frames = opened
        }
        let (cells, displayTime) = try frames!.next()
        return AnimatedCells(cells: cells, displayTime: displayTime)
    }

    /// The bytes held a still picture after all (a GIF of one frame).
    struct NotAnimated: Error {}
}
