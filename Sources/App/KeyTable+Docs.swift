/// The key table as the docs show it: the README's main keys, docs/keys.md, and the man page's KEYS section. Tests
/// compare the files with these, so the docs cannot drift from the keys.
extension KeyTable {
    /// The keys of a line as the docs write them: the help's groups parted by commas ("↑ ↓, j k").
    static func docLabel(_ binding: KeyBinding) -> String {
        binding.label.replacing("  ", with: ", ")
    }

    /// Every line the docs list: the table's, then the picker's, marked as such.
    static var documented: [KeyBinding] {
        bindings + pickerBindings.map { binding in
            var picking = binding
            picking.label += " (picking)"
            return picking
        }
    }

    /// The keys as a Markdown table: the main ones in the help's words (the README), or every line in the docs'
    /// words (docs/keys.md), the picker's (`thumbtable pick`, `--pick`) last.
    public static func markdown(mainOnly: Bool) -> String {
        let rows = (mainOnly ? bindings.filter(\.main) : documented).map { binding in
            "| \(docLabel(binding)) | \((mainOnly ? binding.help : nil) ?? binding.docText) |"
        }
        return (["| key | action |", "|---|---|"] + rows).joined(separator: "\n")
    }

    /// The man page's KEYS section, in mdoc.
    public static var manualSection: String {
        var lines = [".Sh KEYS", "Keys of the table, the grid and the panes; ? shows them in the program.",
                     ".Bl -tag -width 6n"]
        for binding in documented {
            lines += [".It Sy \"\(Manual.escaped(docLabel(binding)))\"", Manual.escaped(binding.docText)]
        }
        return (lines + [".El"]).joined(separator: "\n")
    }
}

/// Text for mdoc: backticks dropped (Markdown's code), backslashes written `\e`, and a line that would start with a
/// dot or an apostrophe (a request to roff) guarded with `\&`.
public enum Manual {
    public static func escaped(_ text: String) -> String {
        var text = text.replacing("\\", with: "\\e").replacing("`", with: "").replacing("\"", with: "\\(dq")
        if text.hasPrefix(".") || text.hasPrefix("'") { text = "\\&" + text }
        return text
    }
}
