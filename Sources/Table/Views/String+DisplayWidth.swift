import Cells

extension String {
    /// The string padded with spaces to a display width.
    func padding(toDisplayWidth width: Int) -> String {
        let w = displayWidth
        return w >= width ? self : self + String(repeating: " ", count: width - w)
    }
}
