import QuarryCore

/// LIKE patterns (SQL `%`/`_` with an optional escape; NSPredicate `*`/`?` with `\`) as the
/// PCRE pattern of the same test: anchored at both ends (`\A…\z`, so a trailing newline is not
/// forgiven), wildcards as `.*` / `.` under the `s` flag, literal runs quoted `\Q…\E`. The
/// pattern is read by `LikeText.tokens`, as the evaluator reads it (an escape at the very end
/// stands for itself).
enum LikePattern {
    static func regex(_ pattern: String, _ syntax: LikeSyntax) -> String {
        var out = #"\A"#
        var literal = String.UnicodeScalarView()
        func flush() {
            if !literal.isEmpty { out += QuotedRegex.pattern(.contains, String(literal)) }
            literal.removeAll()
        }
        for token in LikeText.tokens(pattern, syntax) {
            switch token {
            case .literal(let u): literal.append(u)
            case .any: flush(); out += ".*"
            case .one: flush(); out += "."
            }
        }
        flush()
        return out + #"\z"#
    }
}
