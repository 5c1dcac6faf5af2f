import QuarryCore

/// LIKE patterns (SQL `%`/`_` with an optional escape; NSPredicate `*`/`?` with `\`) as the
/// PCRE pattern of the same test: anchored at both ends (`\A…\z`, so a trailing newline is not
/// forgiven), wildcards as `.*` / `.` under the `s` flag, literal runs quoted `\Q…\E`.
enum LikePattern {
    static func regex(_ pattern: String, _ syntax: LikeSyntax) -> String {
        var out = #"\A"#
        var literal = ""
        func flush() {
            if !literal.isEmpty { out += QuotedRegex.pattern(.contains, literal) }
            literal = ""
        }
        var escaping = false
        for ch in pattern {
            if escaping {
                literal.append(ch)
                escaping = false
                continue
            }
            switch syntax {
            case .sql(let escape):
                if let escape, ch == escape { escaping = true }
                else if ch == "%" { flush(); out += ".*" }
                else if ch == "_" { flush(); out += "." }
                else { literal.append(ch) }
            case .glob:
                if ch == "\\" { escaping = true }
                else if ch == "*" { flush(); out += ".*" }
                else if ch == "?" { flush(); out += "." }
                else { literal.append(ch) }
            }
        }
        flush()
        return out + #"\z"#
    }
}
