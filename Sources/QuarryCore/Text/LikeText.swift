/// LIKE patterns rewritten between SQL's `%`/`_` (with an optional escape character) and
/// NSPredicate's `*`/`?` (with `\`), reading them exactly as the evaluator does: an escape makes
/// the next scalar literal, an escape at the very end stands for itself, and literal runs are
/// compared scalar by scalar. A rewritten pattern has the same wildcards and the same literal
/// scalars, so it matches the same strings under the same string options.
package enum LikeText {
    package enum Token: Equatable, Sendable {
        case literal(Unicode.Scalar)
        case one
        case any
    }

    /// The pattern's wildcards and literal scalars, as the evaluator reads them.
    package static func tokens(_ pattern: String, _ syntax: LikeSyntax) -> [Token] {
        let scalars = Array(pattern.unicodeScalars)
        let escape: [Unicode.Scalar]
        let anyRun: Unicode.Scalar, oneChar: Unicode.Scalar
        switch syntax {
        case .sql(let e):
            escape = e.map { Array($0.unicodeScalars) } ?? []
            anyRun = "%"
            oneChar = "_"
        case .glob:
            escape = ["\\"]
            anyRun = "*"
            oneChar = "?"
        }
        var out: [Token] = []
        var i = 0
        while i < scalars.count {
            if !escape.isEmpty, scalars[i...].starts(with: escape) {
                let next = i + escape.count
                if next < scalars.count {
                    out.append(.literal(scalars[next]))
                    i = next + 1
                } else {
                    out += escape.map(Token.literal)
                    i = next
                }
                continue
            }
            let u = scalars[i]
            out.append(u == anyRun ? .any : u == oneChar ? .one : .literal(u))
            i += 1
        }
        return out
    }

    /// The pattern in NSPredicate's glob syntax.
    package static func glob(_ tokens: [Token]) -> String {
        var out = String.UnicodeScalarView()
        for t in tokens {
            switch t {
            case .any: out.append("*")
            case .one: out.append("?")
            case .literal(let u):
                if u == "*" || u == "?" || u == "\\" { out.append("\\") }
                out.append(u)
            }
        }
        return String(out)
    }

    /// The pattern in SQL syntax, with `\` as the escape character when a literal needs one.
    package static func sql(_ tokens: [Token]) -> (pattern: String, escape: Character?) {
        let special: Set<Unicode.Scalar> = ["%", "_", "\\"]
        let needsEscape = tokens.contains { if case .literal(let u) = $0 { special.contains(u) } else { false } }
        var out = String.UnicodeScalarView()
        for t in tokens {
            switch t {
            case .any: out.append("%")
            case .one: out.append("_")
            case .literal(let u):
                if needsEscape, special.contains(u) { out.append("\\") }
                out.append(u)
            }
        }
        return (String(out), needsEscape ? "\\" : nil)
    }

    /// A glob pattern matching exactly `text` (every scalar literal).
    package static func exactGlob(_ text: String) -> String {
        glob(text.unicodeScalars.map(Token.literal))
    }

    /// `prefix*`, `*suffix`, `*part*` as tokens.
    package static func tokens(for op: StringOperator, _ text: String) -> [Token]? {
        let literal = text.unicodeScalars.map(Token.literal)
        switch op {
        case .beginsWith: return literal + [.any]
        case .endsWith: return [.any] + literal
        case .contains: return [.any] + literal + [.any]
        case .like, .matches: return nil
        }
    }
}
