import TestSupport

/// What every end-to-end test shares.
enum EndToEnd {
    /// How long any wait in an end-to-end test waits for what it checks before the test fails: one generous
    /// deadline for every wait. A wait returns as soon as its condition holds, so the deadline costs nothing when
    /// things go right; it only has to outlast the slowest honest machine: every suite starts at once on two cores,
    /// and CI may share them with other work (a first screen has taken 15 s there).
    static let deadline: Duration = Deadline.generous
}
