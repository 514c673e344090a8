/// The table's one "something changed, draw again" callback: the controller, the thumbnail binder, the slots and
/// the panes send through it, and the app (or a test) says once what it does.
@MainActor
final class ChangeSignal {
    var handler: @MainActor () -> Void = {}
    /// How many changes were sent: a frame model worked out before the last one is stale.
    private(set) var count = 0

    func send() {
        count += 1
        handler()
    }
}
