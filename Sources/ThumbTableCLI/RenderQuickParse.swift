import ArgumentParser
import TextArt

extension RenderSettings {
    /// `render`'s arguments parsed without ArgumentParser, whose reflection over the options took longer than
    /// decoding and rendering a picture. It takes the forms people and scripts write (`--size 80x40`, `--size=80x40`,
    /// the file anywhere) and returns nil for anything it does not take exactly as ArgumentParser would: help, short
    /// or unknown options, an option given twice, `--`, a value that does not parse or validate. Those go the long
    /// way, through `RenderCommand`, which prints the full messages and help.
    init?(quickParsing arguments: [String]) {
        var settings = RenderSettings(input: "")
        var input: String?
        var seen: Set<Substring> = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--"), argument.count > 2 else {
                guard input == nil, !argument.hasPrefix("-") else { return nil }
                input = argument
                continue
            }
            var name = argument.dropFirst(2)
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = name[..<equals]
            }
            guard seen.insert(name).inserted else { return nil }
            if name == "stretch" {
                guard value == nil else { return nil }
                settings.stretch = true
                continue
            }
            guard let value = value ?? rest.popFirst() else { return nil }
            switch name {
            case "size": settings.size = value
            case "cols": guard let cols = Int(argument: value) else { return nil }; settings.cols = cols
            case "rows": guard let rows = Int(argument: value) else { return nil }; settings.rows = rows
            case "mode": guard let mode = RenderMode(argument: value) else { return nil }; settings.mode = mode
            case "color": guard let color = ColorDepth(argument: value) else { return nil }; settings.color = color
            case "dither": guard let dither = Dither(argument: value) else { return nil }; settings.dither = dither
            case "cell-aspect":
                guard let aspect = Double(argument: value) else { return nil }
                settings.cellAspect = aspect
            case "background": settings.background = value
            case "timeout": guard let timeout = Double(argument: value) else { return nil }; settings.timeout = timeout
            default: return nil
            }
        }
        guard let input else { return nil }
        settings.input = input
        guard (try? settings.validate()) != nil else { return nil }
        self = settings
    }
}
