/// Checks of a LIKE pattern and its ESCAPE character, shared by lowering and the printer.
enum LikePattern {
    /// The escape character, when the ESCAPE string holds exactly one character.
    static func escapeCharacter(_ text: String) -> Character? {
        text.count == 1 ? text.first : nil
    }

    /// Whether the pattern ends with an escape character that escapes nothing.
    static func endsWithLoneEscape(_ pattern: String, escape: Character?) -> Bool {
        guard let escape else { return false }
        var escaping = false
        for ch in pattern {
            escaping = escaping ? false : ch == escape
        }
        return escaping
    }
}
