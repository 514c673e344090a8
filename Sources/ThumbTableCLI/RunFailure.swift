/// A failure while running, not a mistake on the command line: a config file that cannot be used, a port that
/// cannot be listened on, demo data that is missing. `Messages.exit(withError:)` says it as `Error: MESSAGE`, without
/// the usage text a bad argument gets, and exits with `status`.
struct RunFailure: Error, CustomStringConvertible {
    /// What failed and where, and what to do.
    var description: String
    /// The exit status: 1, or `configStatus` for the config file.
    var status: Int32

    init(_ description: String, status: Int32 = 1) {
        self.description = description
        self.status = status
    }

    /// The exit status for a config file that cannot be used: sysexits' EX_CONFIG, which no other failure uses,
    /// so a script can tell it from a bad argument (64) and a failed run (1).
    static let configStatus: Int32 = 78

    /// A config file problem, with what to do about it.
    static func config(_ problem: String) -> RunFailure {
        RunFailure("config file \(problem)", status: configStatus)
    }
}
