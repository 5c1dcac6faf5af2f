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
        var tokens: [Token] = []
        var literal = String.UnicodeScalarView()
        func flushLiteral() {
            guard !literal.isEmpty else { return }
            for u in StringFolding.fold(String(literal), options).unicodeScalars { tokens.append(.scalar(u)) }
            literal.removeAll()
        }
        // Core reads the pattern (wildcards, escapes); literal runs are folded here as a whole.
        for token in LikeText.tokens(pattern, syntax) {
            switch token {
            case .literal(let u): literal.append(u)
            case .any:
                flushLiteral()
                if tokens.last != .any { tokens.append(.any) }
            case .one:
                flushLiteral()
                tokens.append(.one)
            }
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
