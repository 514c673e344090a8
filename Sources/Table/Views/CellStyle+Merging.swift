import Cells

extension CellStyle {
    /// This style with another laid over it: the other's non-default colours and its attributes win.
    public func merging(_ other: CellStyle) -> CellStyle {
        CellStyle(foreground: other.foreground == .default ? foreground : other.foreground,
                  background: other.background == .default ? background : other.background,
                  attributes: attributes.union(other.attributes))
    }
}
