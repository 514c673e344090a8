import Cells
import Items

extension TableController {
    /// Opens the detail pane on the selected item, or the failure's pane when the row of a failed page is selected.
    public func openSelected() {
        guard let (index, item) = selectedItem else {
            if case .failed(let message, _) = listStatus {
                pageFailure = PageFailurePane(reason: Self.failureReason(message), firstPage: items.isEmpty,
                                              loadedRows: items.count)
                changed()
            }
            return
        }
        let state = pool.slot(forItem: index)?.thumbnail ?? .none
        let pane = DetailPane(itemIndex: index, item: item, rowThumbnail: state, loader: loader,
                              lowData: configuration.lowData, onChange: { [weak self] in self?.changed() })
        detail = pane
        pane.layoutImage(width: size.columns, height: listHeight)
        changed()
    }

    /// Closes the detail pane (or the failure's pane), back to the list as it was.
    public func closeDetail() {
        detail?.close()
        detail = nil
        pageFailure = nil
        changed()
    }
}
