/// Number spellings that read back to the same value.
enum NumberText {
    /// Swift prints the shortest text that parses back to the same double; it always has a
    /// fraction or an exponent (`5.0`, `1e-05`), so it reads back as a double, not an integer.
    static func double(_ d: Double) -> String { d.description }
}
