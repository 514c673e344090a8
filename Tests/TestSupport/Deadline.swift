/// How long a test waits for what it checks before it fails: one generous deadline, the default of every wait in
/// TestSupport (and the end-to-end tests' `EndToEnd.deadline`). A wait returns as soon as its condition holds, so
/// the deadline costs nothing when things go right; it only has to outlast a machine loaded by every suite at once
/// beside a CPU hog, where 10 s was once too short for a prefetch to be joined.
public enum Deadline {
    public static let generous: Duration = .seconds(120)
}
