import QuarryCore

// The diagnostic codes only the command line reports. docs/DIAGNOSTICS.md is generated from the
// catalogues (`make docs`).

extension DiagnosticCode.Input {
    public static let read = DiagnosticCode(
        "input.read",
        meaning: "The query text given as `-` could not be read from standard input.",
        example: .situation("`quarry check -` with standard input closed"))
    public static let encoding = DiagnosticCode(
        "input.encoding",
        meaning: "The query text, read from standard input or given as an argument, is not valid UTF-8.",
        example: .situation("`printf 'a = \\xff' | quarry check -`"))
}

extension DiagnosticCode.SQLite {
    public static let error = DiagnosticCode(
        "sqlite.error",
        meaning: "`quarry bench --sqlite` could not load the data into SQLite; the message is "
            + "SQLite's.",
        example: .situation("`quarry bench --sqlite` on data SQLite rejects"))
}

extension DiagnosticCatalogue {
    public static let cli = DiagnosticCatalogue([.input.read, .input.encoding, .sqlite.error])
}
