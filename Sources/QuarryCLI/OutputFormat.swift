import ArgumentParser

/// `--format` (and the shell's `.format`): how objects are printed
/// (docs/ARCHITECTURE.md#output-formats). Without one, `run` prints a table to a terminal and
/// NDJSON to a pipe or file.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    /// One Parse REST JSON object a line.
    case ndjson
    /// One JSON document, `{"results":[…]}`, as Parse's REST API answers (and `--data` reads).
    case json
    /// Aligned columns with a rule and a row count, like psql.
    case table
    /// Columns in a grid of box-drawing characters, like sqlite3's `.mode box`.
    case box
    /// RFC 4180 comma-separated values with a header line.
    case csv
    /// A GitHub-flavoured Markdown table.
    case markdown

    /// The format when none is chosen: a table for people, NDJSON for programs.
    static func defaultFor(terminal: Bool) -> OutputFormat { terminal ? .table : .ndjson }
}
