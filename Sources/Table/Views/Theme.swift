import Cells

/// The styles of the table's parts.
public struct Theme: Sendable {
    public var header: CellStyle
    public var footer: CellStyle
    public var status: CellStyle
    public var title: CellStyle
    public var subtitle: CellStyle
    public var attribution: CellStyle
    /// Applied over a selected row's text.
    public var selection: CellStyle
    public var selectionMarker: CellStyle
    public var placeholder: CellStyle
    public var failure: CellStyle
    public var error: CellStyle
    public var label: CellStyle
    /// What is as it should be: the reuse overlay's `wrong_paints` at 0.
    public var good = CellStyle(foreground: .palette(2), attributes: .bold)

    /// For terminals with 256 colours or more.
    public static let color = Theme(
        header: CellStyle(foreground: .palette(255), background: .palette(24), attributes: .bold),
        footer: CellStyle(foreground: .palette(250), background: .palette(236)),
        status: CellStyle(foreground: .default),
        title: CellStyle(attributes: .bold),
        subtitle: CellStyle(foreground: .palette(250)),
        attribution: CellStyle(foreground: .palette(244), attributes: .italic),
        selection: CellStyle(background: .palette(237)),
        selectionMarker: CellStyle(foreground: .palette(45), attributes: .bold),
        placeholder: CellStyle(foreground: .palette(245), background: .palette(235)),
        failure: CellStyle(foreground: .palette(203), background: .palette(235), attributes: .bold),
        error: CellStyle(foreground: .palette(203), attributes: .bold),
        label: CellStyle(foreground: .palette(110), attributes: .bold)
    )

    /// For 8- and 16-colour and monochrome terminals: attributes instead of shades of grey.
    public static let basic = Theme(
        header: CellStyle(attributes: [.reverse, .bold]),
        footer: CellStyle(attributes: .reverse),
        status: CellStyle(),
        title: CellStyle(attributes: .bold),
        subtitle: CellStyle(),
        attribution: CellStyle(attributes: .dim),
        selection: CellStyle(attributes: .reverse),
        selectionMarker: CellStyle(attributes: .bold),
        placeholder: CellStyle(attributes: .dim),
        failure: CellStyle(foreground: .palette(1), attributes: .bold),
        error: CellStyle(foreground: .palette(1), attributes: .bold),
        label: CellStyle(attributes: .bold)
    )

    /// Without colour (NO_COLOR, --color none, a monochrome terminal): attributes only, so no colour pair is used;
    /// the basic theme with failures underlined instead of red.
    public static let plain: Theme = {
        var theme = basic
        theme.failure = CellStyle(attributes: [.bold, .underline])
        theme.error = CellStyle(attributes: [.bold, .underline])
        theme.good = CellStyle(attributes: .bold)
        return theme
    }()

    /// The theme for a terminal drawing `colors` colours (0, 8, 16, 256, or 1 << 24).
    public static func forColors(_ colors: Int) -> Theme {
        colors >= 256 ? .color : colors > 0 ? .basic : .plain
    }
}
