import QuarryCore

/// Token search for `Condition.text` (Parse `$text`). Text is split into tokens, the runs of
/// Unicode letters, marks and digits; tokens compare after folding (case- and
/// diacritic-insensitive unless the search says otherwise). The search holds terms separated by
/// spaces: a plain word, a quoted phrase `"a b"` (its tokens must appear consecutively), and
/// either prefixed by `-` to exclude it. A field matches when every positive term appears and no
/// excluded term does; a search without a positive term matches nothing (as in MongoDB). No
/// stemming or stop words: `language` is not used.
struct TextMatcher: Sendable {
    private let options: StringOptions
    private var required: [[String]] = []
    private var excluded: [[String]] = []

    init(_ search: TextSearch) {
        var options: StringOptions = []
        if !search.caseSensitive { options.insert(.caseInsensitive) }
        if !search.diacriticSensitive { options.insert(.diacriticInsensitive) }
        self.options = options

        let scalars = Array(search.terms.unicodeScalars)
        var i = 0
        while i < scalars.count {
            if scalars[i].properties.isWhitespace { i += 1; continue }
            var negated = false
            if scalars[i] == "-", i + 1 < scalars.count, !scalars[i + 1].properties.isWhitespace {
                negated = true
                i += 1
            }
            var term = String.UnicodeScalarView()
            if scalars[i] == "\"" {
                i += 1
                while i < scalars.count, scalars[i] != "\"" { term.append(scalars[i]); i += 1 }
                i += 1  // the closing quote (or the end of an unterminated phrase)
            } else {
                while i < scalars.count, !scalars[i].properties.isWhitespace { term.append(scalars[i]); i += 1 }
            }
            let tokens = Self.tokens(of: String(term), options)
            guard !tokens.isEmpty else { continue }
            if negated { excluded.append(tokens) } else { required.append(tokens) }
        }
    }

    func matches(_ text: String) -> Bool {
        guard !required.isEmpty else { return false }
        let tokens = Self.tokens(of: text, options)
        return required.allSatisfy { Self.contains(tokens, phrase: $0) }
            && !excluded.contains { Self.contains(tokens, phrase: $0) }
    }

    static func tokens(of text: String, _ options: StringOptions) -> [String] {
        var tokens: [String] = []
        var current = String.UnicodeScalarView()
        for u in StringFolding.fold(text, options).unicodeScalars {
            switch u.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                current.append(u)
            default:
                if !current.isEmpty { tokens.append(String(current)); current.removeAll() }
            }
        }
        if !current.isEmpty { tokens.append(String(current)) }
        return tokens
    }

    /// Whether `phrase` occurs as consecutive tokens (compared by scalars).
    private static func contains(_ tokens: [String], phrase: [String]) -> Bool {
        guard phrase.count <= tokens.count else { return false }
        for start in 0...(tokens.count - phrase.count) {
            if zip(tokens[start...], phrase).allSatisfy({ String.sameUTF8($0, $1) }) { return true }
        }
        return false
    }
}
