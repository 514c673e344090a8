import Table
import Terminal

/// Where a key is pressed: what shows, with the list told from the grid (some keys differ there).
enum KeyPlace: CaseIterable, Hashable {
    case list, grid, filter, detail, pageFailure, help
}

/// One line of the key table: the keys, where they work, what each does, and how the help and the docs say it.
struct KeyBinding {
    /// The keys as the help writes them ("↑ ↓  j k").
    var label: String
    /// The help's words (`?`); nil for a line only the docs list (a pane's own keys, the filter's).
    var help: String?
    /// The docs' words (docs/keys.md, the man page); the help's when nil.
    var doc: String?
    /// Whether the README's main keys list it.
    var main = false
    var places: Set<KeyPlace>
    /// Each key and what it does; none for a line that only documents (the mouse).
    var actions: [(key: Key, action: KeyAction)]

    /// What the docs say.
    var docText: String { doc ?? help ?? "" }
}

/// The keys, declared once: the dispatch (`KeyBindings`), the `?` help, the README's main keys, docs/keys.md and
/// the man page's KEYS section all read this table. Order matters: where two lines bind a key in one place, the
/// first wins (the grid's ← → before the list's →).
public enum KeyTable {
    private static let lists: Set<KeyPlace> = [.list, .grid]
    private static let panes: Set<KeyPlace> = [.detail, .pageFailure]
    private static let itemPlaces: Set<KeyPlace> = [.list, .grid, .detail]

    private static func c(_ character: Character) -> Key { .character(character) }

    static let bindings: [KeyBinding] = [
        KeyBinding(label: "↑ ↓  j k", help: "move one row (in the grid, one line of pictures)",
                   doc: "move one row (in the grid, one line of pictures, keeping the column)", main: true,
                   places: lists, actions: [(.down, .move(1)), (c("j"), .move(1)), (.up, .move(-1)),
                                            (c("k"), .move(-1))]),
        KeyBinding(label: "← →  h l", help: "in the grid: move one picture across",
                   doc: "in the grid, move one picture across (wrapping to the next line)",
                   places: [.grid], actions: [(.left, .moveAcross(-1)), (c("h"), .moveAcross(-1)),
                                               (.right, .moveAcross(1)), (c("l"), .moveAcross(1))]),
        KeyBinding(label: "PgDn Space  PgUp b", help: "move one screen", main: true, places: lists,
                   actions: [(.pageDown, .page(1)), (c(" "), .page(1)), (.control("f"), .page(1)),
                             (.pageUp, .page(-1)), (c("b"), .page(-1)), (.control("b"), .page(-1))]),
        KeyBinding(label: "Ctrl-D  Ctrl-U", help: "move half a screen", places: lists,
                   actions: [(.control("d"), .page(0.5)), (.control("u"), .page(-0.5))]),
        KeyBinding(label: "Home g  End G", help: "first row; last row, following new pages to the end (any key stops)",
                   doc: "first row, last item (the end-of-list row shows below it; a row Enter or r acts on, a failed "
                       + "page, paging stopped on empty pages or a filter paused, is selected instead); G keeps "
                       + "following the last item as pages arrive, to the end of the list (the header says "
                       + "`following the end`; any key stops it)", main: true, places: lists,
                   actions: [(.home, .home), (c("g"), .home), (.end, .end), (c("G"), .end)]),
        KeyBinding(label: "Enter  → l",
                   help: "open the detail pane (on a failed page: why it failed); → l only in the list",
                   doc: "open the detail pane (on the error row of a failed page: the whole reason; r or Enter there "
                       + "retries); → and l only in the list", main: true, places: lists,
                   actions: [(.enter, .open), (.right, .open), (c("l"), .open)]),
        KeyBinding(label: "Esc q Backspace", help: "close the detail pane",
                   doc: "close the detail pane or the failed page's pane (← and h too)", main: true, places: panes,
                   actions: [(.escape, .back), (c("q"), .back), (.backspace, .back), (.left, .back), (c("h"), .back)]),
        KeyBinding(label: "n p (detail pane)", help: "next or previous item (↓ ↑ too when the text fits)",
                   doc: "the next or previous item without closing the pane (↓ ↑ too when the pane's text fits and "
                       + "has nothing to scroll); the list's selection follows, and the next page loads near the end",
                   places: [.detail], actions: [(c("n"), .adjacent(1)), (c("p"), .adjacent(-1)),
                                                (.down, .adjacentWhenTextFits(1)), (.up, .adjacentWhenTextFits(-1))]),
        KeyBinding(label: "w", help: "save the original image into the save folder (--save-dir)",
                   doc: "save the original image of the detail pane's item, or in the list of the selected row, its "
                       + "bytes as they came (from the caches, else fetched), into `--save-dir`",
                   places: itemPlaces, actions: [(c("w"), .saveOriginal)]),
        KeyBinding(label: "W", help: "save the picture as shown: .ans with colours, .txt without",
                   doc: "save the picture as shown (in the list: the row's thumbnail): `NAME.ans` with its colours as "
                       + "ANSI escapes (`cat` it in a terminal), `NAME.txt` when it has none",
                   places: itemPlaces, actions: [(c("W"), .saveArt)]),
        KeyBinding(label: "o", help: "open the item's page, else its image (a folder's: the file) with $BROWSER",
                   doc: "open the item's page (the field its source marks as the item's page: swapi's `Abstract "
                       + "URL`, Flickr's `link`), else its image (only http(s) URLs), with `$BROWSER` or `xdg-open`; "
                       + "in a folder, the file itself (its path as one argument); the status line says which",
                   main: true, places: itemPlaces, actions: [(c("o"), .openLink)]),
        KeyBinding(label: "y", help: "copy that URL (a folder's file: its path) to the clipboard (OSC 52)",
                   doc: "copy that URL (in a folder, the file's path) to the clipboard with OSC 52; inside tmux the "
                       + "status line says whether tmux passes it on", main: true, places: itemPlaces, actions: [(c("y"), .copyLink)]),
        KeyBinding(label: "/", help: "filter rows by title, subtitle and attribution as you type (Esc clears)",
                   doc: "filter as you type: a row matches when its title, subtitle or attribution (what the row "
                       + "shows) contains the text, ignoring case; Enter keeps the filter, Esc clears it",
                   main: true, places: lists, actions: [(c("/"), .beginFilter)]),
        KeyBinding(label: "Enter (last row)", help: "when the filter stopped reading pages: read more",
                   doc: "when a filter has read `--filter-read-limit` rows (500) without a match, it stops loading "
                       + "pages and says how many rows it read; Enter on that last row reads as many more",
                   places: lists, actions: []),
        KeyBinding(label: "+ -", help: "bigger or smaller thumbnails (in the grid: fewer or more across)",
                   doc: "bigger or smaller thumbnails, a step at a time (= is +); in the grid, one picture fewer "
                       + "across (bigger) or more (smaller)", main: true, places: lists,
                   actions: [(c("+"), .zoom(1)), (c("="), .zoom(1)), (c("-"), .zoom(-1))]),
        KeyBinding(label: "r", help: "retry the selected row's image, or the failed page",
                   doc: "retry the selected row's image (on a row whose picture lookup failed, as in swapi, look it "
                       + "up again), or the failed page; in the detail pane, load its image again", main: true,
                   places: itemPlaces, actions: [(c("r"), .retry)]),
        KeyBinding(label: "d", help: "delete the image from the caches; r fetches it again",
                   doc: "delete the item's image (full size and thumbnail) from the memory and disk caches; then r "
                       + "fetches it again", places: itemPlaces, actions: [(c("d"), .removeFromCache)]),
        KeyBinding(label: "P", help: "prefetch every loaded row's thumbnail (Esc cancels)",
                   doc: "prefetch the thumbnail of every loaded row into the caches, with a progress bar and counts; "
                       + "Esc cancels", places: lists, actions: [(c("P"), .prefetchAll)]),
        KeyBinding(label: "v", help: "switch between the list and the grid",
                   doc: "switch between the list and the grid (from the grid, back to the compact list when that "
                       + "showed last)", main: true, places: lists,
                   actions: [(c("v"), .switchLayout)]),
        KeyBinding(label: "c", help: "switch between the list and the compact list (one to three lines a row)",
                   doc: "switch between the list and the compact list: rows of one to three lines with a small "
                       + "thumbnail, many more on a screen (`+` `-` there: a line more or fewer a row; from the grid, "
                       + "to the compact list)", main: true, places: lists, actions: [(c("c"), .switchCompact)]),
        KeyBinding(label: "s", help: "show or hide the slots and counters",
                   doc: "show or hide the reuse overlay: each row tagged with the slot drawing it, a legend, "
                       + "`wrong_paints`, the live counters by group, the slots' states and a log of their latest "
                       + "events", main: true, places: itemPlaces, actions: [(c("s"), .reuseOverlay)]),
        KeyBinding(label: "mouse", help: "wheel scrolls, click selects, double click opens",
                   doc: "the wheel scrolls, a click selects (the cell under it in the grid), a double click opens",
                   places: Set(KeyPlace.allCases), actions: []),
        KeyBinding(label: "?", help: "show or hide this help",
                   doc: "key help (F1 too; j/k/PgDn scroll it when it is taller than the screen, other keys close it)",
                   main: true, places: lists.union(panes), actions: [(c("?"), .help), (.function(1), .help)]),
        KeyBinding(label: "Ctrl-Z", help: "suspend to the shell (fg comes back)",
                   doc: "suspend to the shell; `fg` brings the screen back", places: Set(KeyPlace.allCases),
                   actions: [(.control("z"), .suspend)]),
        KeyBinding(label: "q  Ctrl-C", help: "quit", doc: "quit (exit status 0 on q, 130 on Ctrl-C, on any screen)",
                   main: true, places: lists, actions: [(c("q"), .quit(0)), (.control("c"), .quit(130))]),
        // The lines below are the panes' and the filter's own keys: the docs list them, the help does not.
        KeyBinding(label: "Enter  r (failed page's pane)", doc: "retry the page that failed", places: [.pageFailure],
                   actions: [(.enter, .retryPage), (c("r"), .retryPage)]),
        KeyBinding(label: "Enter (detail pane)", doc: "scroll the pane's text down one line", places: [.detail],
                   actions: [(.enter, .scroll(.lines(1)))]),
        KeyBinding(label: "↓ ↑ j k PgDn PgUp g G (panes, help)",
                   doc: "scroll a pane's text or a help taller than the screen (Space, b, Ctrl-D, Ctrl-U, "
                       + "Ctrl-F, Ctrl-B, Home and End too)", places: panes.union([.help]),
                   actions: [(.down, .scroll(.lines(1))), (c("j"), .scroll(.lines(1))),
                             (.up, .scroll(.lines(-1))), (c("k"), .scroll(.lines(-1))),
                             (.pageDown, .scroll(.pages(1))),
                             (.control("d"), .scroll(.pages(1))), (.control("f"), .scroll(.pages(1))),
                             (.pageUp, .scroll(.pages(-1))), (c("b"), .scroll(.pages(-1))),
                             (.control("u"), .scroll(.pages(-1))), (.control("b"), .scroll(.pages(-1))),
                             (.home, .scroll(.end(-1))), (c("g"), .scroll(.end(-1))),
                             (.end, .scroll(.end(1))), (c("G"), .scroll(.end(1)))]),
        KeyBinding(label: "Space (detail pane)", doc: "pause or play an animated picture (GIF, WebP, AVIF); without "
                       + "one, scroll the text down a page", places: [.detail], actions: [(c(" "), .pauseAnimation)]),
        KeyBinding(label: "Space (failed page's pane, help)", doc: "scroll the text down a page",
                   places: [.pageFailure, .help], actions: [(c(" "), .scroll(.pages(1)))]),
        KeyBinding(label: "Enter Esc Backspace ↓ ↑ (filter)",
                   doc: "while typing the filter: Enter keeps it, Esc clears it, Backspace deletes a character, "
                       + "↓ ↑ move; other keys type", places: [.filter],
                   actions: [(.enter, .keepFilter), (.escape, .clearFilter), (.backspace, .deleteFilterBackward),
                             (.delete, .deleteFilterBackward), (.down, .move(1)), (.up, .move(-1))]),
        KeyBinding(label: "Esc (list)", doc: "clear a filter kept with Enter (nothing else to clear: nothing happens)",
                   places: lists, actions: [(.escape, .clearFilter)]),
        KeyBinding(label: "Ctrl-L", doc: "draw the screen again", places: lists, actions: [(.control("l"), .redraw)]),
    ]

    /// The keys of a picker (`thumbtable pick`, `--pick`), before the table's own: Enter chooses, Tab marks, Esc
    /// and q end without a choice.
    static let pickerBindings: [KeyBinding] = [
        KeyBinding(label: "Enter", help: "pick the item (the marked ones, when any) and end",
                   doc: "print the selected item (or, with `--multi`, the marked ones in list order) to stdout and "
                       + "end with exit status 0; in the detail pane, its item", places: itemPlaces,
                   actions: [(.enter, .pick)]),
        KeyBinding(label: "Tab", help: "mark or unmark the item, and move on (--multi)",
                   doc: "with `--multi`: mark or unmark the selected item and move to the next; the header counts "
                       + "the marks", places: lists, actions: [(.tab, .toggleMark)]),
        KeyBinding(label: "Space (grid)", help: "mark or unmark the picture, and move on (--multi)",
                   doc: "with `--multi`, in the grid: as Tab", places: [.grid], actions: [(c(" "), .toggleMark)]),
        KeyBinding(label: "Esc  q", help: "end without picking (exit status 130)",
                   doc: "end without printing anything, exit status 130 (Esc first clears a kept filter); Ctrl-C too",
                   places: lists, actions: [(.escape, .cancelPick), (c("q"), .quit(130))]),
    ]

    /// What `key` does in `place`, or nil when it does nothing there: first the actions that work everywhere
    /// (Ctrl-C, Ctrl-Z), then, while picking, the picker's line that binds the key there (marking only with
    /// `multi`), then the first line of the table that binds the key there.
    static func action(for key: Key, in place: KeyPlace, picking: Picking? = nil) -> KeyAction? {
        let everywhere = bindings.lazy.flatMap(\.actions).first { $0.key == key && $0.action.worksEverywhere }
        if let everywhere { return everywhere.action }
        if let picking {
            for binding in pickerBindings where binding.places.contains(place) {
                guard let bound = binding.actions.first(where: { $0.key == key }) else { continue }
                if bound.action == .toggleMark, !picking.multi { break }
                return bound.action
            }
        }
        for binding in bindings where binding.places.contains(place) {
            if let bound = binding.actions.first(where: { $0.key == key }) { return bound.action }
        }
        return nil
    }

    /// The help's lines (`?`): the lines with help words, in the table's order; a picker's first.
    public static func helpLines(picking: Picking? = nil) -> [HelpLine] {
        // Marking is no key without `multi`.
        let picker = picking.map { picking in
            pickerBindings.filter { picking.multi || !$0.actions.allSatisfy { $0.action == .toggleMark } }
        } ?? []
        return (picker + bindings).compactMap { binding in binding.help.map { (binding.label, $0) } }
    }
}
