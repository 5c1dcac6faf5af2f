/// The exit statuses of docs/ARCHITECTURE.md#exit-statuses, relied on by scripts and outside tools.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// The query is invalid or cannot run (a diagnostic says why).
    case queryFailed = 1
    /// The command line is wrong (unknown option, missing value, conflicting flags, …).
    case usage = 2
    /// The data file is unreadable or malformed.
    case badData = 3
}
