import Quarry
import QuarryStoreSupport

extension SQLiteTranslator {
    /// BEGINSWITH, ENDSWITH, CONTAINS and LIKE become GLOB (case-sensitive, like Quarry's
    /// scalar matching) or, case-insensitively over ASCII text, LIKE with `\` as the escape;
    /// MATCHES and `$regex` call `quarry_regexp`, which is PCRE2 as in Quarry.
    mutating func string(
        _ e: Expr, _ op: StringOperator, _ patternExpr: Expr, _ options: StringOptions,
        _ rule: LeafRule, _ row: Row
    ) throws(SQLiteNotComparable) -> String {
        guard case .key(let path) = e, case .literal(let patternValue) = patternExpr else {
            throw SQLiteNotComparable("string tests are translated for a field and a literal pattern only")
        }
        guard case .string(let pattern) = patternValue else { return rule.withoutOperand ? "1" : "0" }
        // As Foundation's `hasPrefix:@""` is NO, an empty substring is in no string (predicate).
        if rule.semantics == .predicate, pattern.isEmpty, op.isSubstringTest { return rule.withoutOperand ? "1" : "0" }
        // GLOB, LIKE and quarry_regexp read text up to its first NUL.
        if pattern.utf8.contains(0) {
            throw SQLiteNotComparable("SQLite's pattern matching ends a pattern at its first NUL")
        }
        if tables.values.contains(where: { $0.nulFields.contains(path.components.last ?? "") }) {
            throw SQLiteNotComparable("\(path) holds a string with a NUL, where SQLite's pattern matching stops")
        }
        switch try operand(path, row) {
        case .geo: return rule.withoutOperand ? "1" : "0"
        case .scalar(let sql, let kind):
            return scalarLeaf(sql, try matcher(sql, kind, op, pattern, options, rule), nullPasses: false, rule)
        case .array(let sql, let element):
            return arrayLeaf(sql, try matcher("value", element, op, pattern, options, rule), rule)
        }
    }

    private mutating func matcher(
        _ x: String, _ kind: SQLiteColumnKind?, _ op: StringOperator, _ pattern: String,
        _ options: StringOptions, _ rule: LeafRule
    ) throws(SQLiteNotComparable) -> SQLiteOutcome {
        guard case .text? = kind else { return .unknown }
        if case .matches(var regex) = op {
            if options.contains(.diacriticInsensitive) {
                throw SQLiteNotComparable("diacritic-insensitive regular expressions are not translated")
            }
            if options.contains(.caseInsensitive) { regex.flags.insert(.caseInsensitive) }
            let flags = regex.flags.letters + (regex.wholeString ? "w" : "")
            let call = "quarry_regexp(\(parameter(.text(pattern))), \(parameter(.text(flags))), \(x)"
            // The leaf's SQL rises with the match unless the leaf is negated or under IS NOT 1
            // (both: it rises again).
            let test = lenientRegex ? call + (rule.negated == underIsNot ? ", 1)" : ", 0)") : call + ")"
            // Text that fails the pattern's GLOB superset cannot match, and PCRE turns it away
            // in a few steps, uncharged: SQLite's own GLOB drops it before the function is called.
            guard let glob = RegexText.globSuperset(pattern, regex) else { return .sql(test, fails: nil) }
            return .sql("(\(x) GLOB \(parameter(.text(glob))) AND \(test))", fails: nil)
        }
        let tokens: [LikeToken]
        switch op {
        case .beginsWith: tokens = LikeToken.literal(pattern) + [.any]
        case .endsWith: tokens = [.any] + LikeToken.literal(pattern)
        case .contains: tokens = [.any] + LikeToken.literal(pattern) + [.any]
        case .like(let syntax): tokens = LikeToken.parse(pattern, syntax)
        case .matches: return .unknown
        }
        if options.contains(.caseInsensitive) {
            _ = try collation(options, kind, [.string(pattern)])
            return .sql("\(x) LIKE \(parameter(.text(LikeToken.like(tokens)))) ESCAPE '\\'", fails: nil)
        }
        if options.contains(.diacriticInsensitive) { _ = try collation(options, kind, [.string(pattern)]) }
        return .sql("\(x) GLOB \(parameter(.text(LikeToken.glob(tokens))))", fails: nil)
    }
}

/// A LIKE pattern as Quarry reads it (Core's `LikeText`): `%`/`*` any run,
/// `_`/`?` one Unicode scalar, an escape makes the next scalar literal, and an escape at the
/// very end stands for itself.
enum LikeToken: Equatable {
    case scalar(Unicode.Scalar)
    case one
    case any

    static func literal(_ s: String) -> [LikeToken] { s.unicodeScalars.map(LikeToken.scalar) }

    /// Read by Core's `LikeText`, exactly as the evaluator reads it.
    static func parse(_ pattern: String, _ syntax: LikeSyntax) -> [LikeToken] {
        LikeText.tokens(pattern, syntax).map {
            switch $0 {
            case .literal(let u): return .scalar(u)
            case .one: return .one
            case .any: return .any
            }
        }
    }

    /// SQLite GLOB: `*`, `?`, and `[c]` for a literal `*`, `?` or `[`.
    static func glob(_ tokens: [LikeToken]) -> String {
        var out = String.UnicodeScalarView()
        for t in tokens {
            switch t {
            case .any: out.append("*")
            case .one: out.append("?")
            case .scalar(let u) where u == "*" || u == "?" || u == "[":
                out.append(contentsOf: "[\(u)]".unicodeScalars)
            case .scalar(let u): out.append(u)
            }
        }
        return String(out)
    }

    /// SQLite LIKE with `ESCAPE '\'`.
    static func like(_ tokens: [LikeToken]) -> String {
        var out = String.UnicodeScalarView()
        for t in tokens {
            switch t {
            case .any: out.append("%")
            case .one: out.append("_")
            case .scalar(let u) where u == "%" || u == "_" || u == "\\":
                out.append("\\")
                out.append(u)
            case .scalar(let u): out.append(u)
            }
        }
        return String(out)
    }
}
