import QuarryCore

/// A LIKE pattern parsed once: SQL (`%`, `_`, an optional escape character) or NSPredicate glob
/// (`*`, `?`, `\`). Matching works on Unicode scalars, so `_` and `?` match exactly one scalar
/// of the (folded) subject, consistent with `=` comparing scalars. Matching is iterative with a
/// single backtrack point, so no pattern can take more than O(pattern × subject) steps.
struct LikePattern: Sendable {
    enum Token: Equatable, Sendable {
        case scalar(Unicode.Scalar)
        case one
        case any
    }

    let tokens: [Token]
    let options: StringOptions

    /// Parses `pattern`; literal runs are folded with `options`, wildcards are kept. An escape
    /// character at the very end stands for itself (as MySQL treats it); an escaped character
    /// that is not a wildcard is simply literal.
    init(_ pattern: String, syntax: LikeSyntax, options: StringOptions) {
        self.options = options
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
        var tokens: [Token] = []
        var literal = String.UnicodeScalarView()
        func flushLiteral() {
            guard !literal.isEmpty else { return }
            for u in StringFolding.fold(String(literal), options).unicodeScalars { tokens.append(.scalar(u)) }
            literal.removeAll()
        }
        var i = 0
        while i < scalars.count {
            if !escape.isEmpty, scalars[i...].starts(with: escape) {
                let next = i + escape.count
                if next < scalars.count {
                    literal.append(scalars[next])
                    i = next + 1
                } else {
                    literal.append(contentsOf: escape)
                    i = next
                }
                continue
            }
            let u = scalars[i]
            if u == anyRun {
                flushLiteral()
                if tokens.last != .any { tokens.append(.any) }
            } else if u == oneChar {
                flushLiteral()
                tokens.append(.one)
            } else {
                literal.append(u)
            }
            i += 1
        }
        flushLiteral()
        self.tokens = tokens
    }

    func matches(_ subject: String) -> Bool {
        let s = Array(StringFolding.fold(subject, options).unicodeScalars)
        // Classic wildcard matching: advance both; on a mismatch, retry from the last `any`
        // consuming one more subject scalar. Earlier `any`s never need revisiting.
        var si = 0, pi = 0
        var starToken = -1, starSubject = 0
        while si < s.count {
            if pi < tokens.count {
                switch tokens[pi] {
                case .any:
                    starToken = pi
                    starSubject = si
                    pi += 1
                    continue
                case .one:
                    si += 1
                    pi += 1
                    continue
                case .scalar(let u) where u == s[si]:
                    si += 1
                    pi += 1
                    continue
                case .scalar:
                    break
                }
            }
            guard starToken >= 0 else { return false }
            starSubject += 1
            si = starSubject
            pi = starToken + 1
        }
        while pi < tokens.count, tokens[pi] == .any { pi += 1 }
        return pi == tokens.count
    }
}
