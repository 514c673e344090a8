import App

/// The man page's sections that swift-argument-parser does not write: KEYS (from the app's key table), ENVIRONMENT,
/// FILES and EXAMPLES. `thumbtable --manual-sections` prints them in mdoc, and scripts/generate-manual puts them
/// before EXIT STATUS; a test checks that docs/thumbtable.1 holds them as printed.
enum ManualSections {
    /// A name (a variable, a path, a command) and what the man page says of it.
    typealias Entry = (name: String, text: String)

    /// The variables the program reads, and what for.
    static let environment: [Entry] = [
        ("NO_COLOR", "When set and not empty: no colour (as --color none), in the table and in render."),
        ("COLORTERM", "truecolor or 24bit: the terminal shows 24-bit colour."),
        ("TERM", "The terminal's terminfo entry (an entry curses lacks falls back to a close one, said in the "
            + "status line); render takes a name with 256color for 256 colours."),
        ("BROWSER", "The browser o opens a page with (its first entry, as a colon-separated list), else xdg-open."),
        ("XDG_CONFIG_HOME", "Where the config file is looked for, when set to an absolute path."),
        ("XDG_CACHE_HOME", "Where the disk cache goes, when set to an absolute path."),
        ("HOME", "The folder ~ stands for, and where ~/.config and ~/.cache are without the XDG variables."),
        ("TMUX, TMUX_PANE", "Inside tmux: pictures pass through tmux when it lets them, y copies by way of tmux, "
            + "and the pane's options are read (never changed)."),
        ("TERM_PROGRAM, KITTY_WINDOW_ID", "Which terminal runs the program, for the pictures in pixels "
            + "(--graphics auto)."),
    ]

    /// The files the program reads and writes.
    static let files: [Entry] = [
        ("$XDG_CONFIG_HOME/thumbtable/config.toml", "The config file (else ~/.config/thumbtable/config.toml): "
            + "defaults for the display options of the browsing commands and pick, one key = value a line, as the long "
            + "option without its dashes; the command line wins."),
        ("$XDG_CACHE_HOME/thumbtable/", "The disk cache of downloaded images (else ~/.cache/thumbtable/; "
            + "--cache-dir moves it, --no-disk-cache leaves it alone, thumbtable cache clear empties it)."),
    ]

    /// Commands to start from, and what each shows.
    static let examples: [Entry] = [
        ("thumbtable", "The offline demo: 2,000 rows, slow on purpose; s shows the slots at work."),
        ("thumbtable demo --compare", "A naive table on the left, ThumbTable on the right, every key to both."),
        ("thumbtable browse ~/Pictures --recursive", "The images in a folder and the folders below it."),
        ("thumbtable swapi", "SWAPI's species, each with a picture found by DuckDuckGo (network)."),
        ("thumbtable browse ~/Pictures --print > list.txt", "One screen of the table on stdout, for a script."),
        ("thumbtable render photo.jpg", "One image as text art on stdout."),
        ("feh --bg-fill \"$(find ~/Pictures -name '*.jpg' | thumbtable pick --layout grid)\"",
         "A wallpaper picker: the chosen file's path on stdout (Esc: nothing, exit status 130)."),
        ("ls *.png | thumbtable pick --multi --print0 | xargs -0 -r cp -t /tmp/chosen",
         "Tab marks several pictures; Enter prints them, each ended by a NUL."),
        ("curl -s https://jsonplaceholder.typicode.com/photos | thumbtable pick --items '' --title title "
            + "--image thumbnailUrl", "Pick from an API's JSON: the item's image URL on stdout."),
    ]

    /// The four sections in mdoc, in the order they go before EXIT STATUS.
    static var text: String {
        [KeyTable.manualSection, list("ENVIRONMENT", environment, style: "Ev"), list("FILES", files, style: "Pa"),
         list("EXAMPLES", examples, style: "Cm")].joined(separator: "\n")
    }

    private static func list(_ title: String, _ entries: [Entry], style: String) -> String {
        var lines = [".Sh \(title)", ".Bl -tag -width 6n"]
        for entry in entries {
            lines += [".It \(style) \"\(Manual.escaped(entry.name))\"", Manual.escaped(entry.text)]
        }
        return (lines + [".El"]).joined(separator: "\n")
    }
}
