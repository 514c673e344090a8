import Cells
import Table

extension TableController {
    /// What the app's loop does each turn: bring the loads in line with the screen, then compose the frame.
    @MainActor
    public func nextFrame() -> CellBuffer {
        update()
        return frame()
    }
}
