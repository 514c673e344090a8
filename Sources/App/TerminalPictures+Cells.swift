import Cells
import Codecs
import FoundationEssentials
import Graphics
import Pixels
import Table

extension TerminalPictures {
    /// Before the frame's text: the pictures that are text cells (kitty's placeholders). Each wanted one whose
    /// encoding is kept is uploaded if the terminal lacks it (before the frame that draws its cells) and its cells
    /// handed to the frame; the others are fetched. While the rows fly past, a picture keeps its cells if its owner
    /// showed it the frame before, and none is uploaded or fetched. A late picture shows only where the current
    /// frame wants it, for the binding that wants it: the cells go by owner.
    func showCells(_ pictures: [ScreenPicture]) {
        var next: [PictureOwner: Shown] = [:]
        var cells: [PictureOwner: CellBuffer] = [:]
        var bytes: [UInt8] = []
        for picture in pictures where next[picture.owner] == nil {
            guard let form = form(for: picture.owner) as? any CellPictures, let key = key(for: picture),
                  !rejected.contains(key) else { continue }
            let shownBefore = shownCells[picture.owner]?.key == key
            if flying && !shownBefore { continue }
            guard let entry = shownBefore ? kept[key] : kept.use(key) else {
                if !flying { load(key, footprint: picture.footprint) }
                continue
            }
            bytes += form.show(entry.picture, at: picture.footprint, placement: placement(of: picture.owner))
            next[picture.owner] = Shown(picture: picture, key: key)
            cells[picture.owner] = form.cells(of: entry.picture, at: picture.footprint)
        }
        shownCells = next
        self.cells = cells
        write(bytes)
    }
}
