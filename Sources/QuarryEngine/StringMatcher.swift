import QuarryCore

/// One string test (`beginsWith`, `endsWith`, `contains`, `like`, `matches`) with its pattern
/// prepared once: folded for the options, parsed as LIKE, or compiled by PCRE2.
///
/// Prefix, suffix and substring tests compare the UTF-8 bytes of the folded strings, which is
/// the same as comparing scalars (UTF-8 never matches across a scalar boundary). An empty
/// pattern is a prefix, suffix and substring of every string.
struct StringMatcher: Sendable {
    private enum Test: Sendable {
        case prefix([UInt8])
        case suffix([UInt8])
        case substring([UInt8])
        case like(LikePattern)
        case regex(CompiledRegex)
    }

    private let test: Test
    private let options: StringOptions

    init(_ op: StringOperator, pattern: String, options: StringOptions, limits: Limits) throws(Diagnostic) {
        self.options = options
        switch op {
        case .beginsWith: test = .prefix(Array(StringFolding.fold(pattern, options).utf8))
        case .endsWith: test = .suffix(Array(StringFolding.fold(pattern, options).utf8))
        case .contains: test = .substring(Array(StringFolding.fold(pattern, options).utf8))
        case .like(let syntax): test = .like(LikePattern(pattern, syntax: syntax, options: options))
        case .matches(let regexOptions):
            test = .regex(try Self.regex(pattern, regexOptions, options, limits))
        }
    }

    /// The compiled regular expression of a `matches` test: `[c]` is PCRE2's own caseless
    /// matching; `[d]` strips marks from both sides (here the pattern, the subject when matched).
    static func regex(
        _ pattern: String, _ regexOptions: RegexOptions, _ options: StringOptions,
        _ limits: Limits
    ) throws(Diagnostic) -> CompiledRegex {
        var regexOptions = regexOptions
        if options.contains(.caseInsensitive) { regexOptions.flags.insert(.caseInsensitive) }
        let source = options.contains(.diacriticInsensitive) ? StringFolding.stripDiacritics(pattern) : pattern
        return try CompiledRegex(source, options: regexOptions, limits: limits)
    }

    /// Whether `subject` passes; a regex charges its work to `budget` (nil: per-match limits only).
    func matches(_ subject: String, budget: QueryBudget?) throws(Diagnostic) -> Bool {
        switch test {
        case .prefix(let p):
            if let answer = asciiPrefix(subject, p) { return answer }
            return Array(StringFolding.fold(subject, options).utf8).starts(with: p)
        case .suffix(let p):
            let s = Array(StringFolding.fold(subject, options).utf8)
            return s.count >= p.count && s[(s.count - p.count)...].elementsEqual(p)
        case .substring(let p):
            if p.isEmpty { return true }
            return Array(StringFolding.fold(subject, options).utf8).firstRange(of: p) != nil
        case .like(let pattern): return pattern.matches(subject)
        case .regex(let r):
            let s = options.contains(.diacriticInsensitive) ? StringFolding.stripDiacritics(subject) : subject
            return try r.matches(s, budget: budget)
        }
    }

    /// The prefix test read from the subject's first bytes, without folding the subject into a
    /// string of its own; nil when they do not decide it. Unfolded, the bytes are the folded
    /// subject. Case folding maps scalar by scalar, and an ASCII scalar to its ASCII lower case,
    /// so while the subject's bytes are ASCII they are lowered one by one into the folded
    /// subject's first bytes; a non-ASCII byte among those the pattern needs leaves it to the
    /// folding (ǰ folds to two scalars). Diacritic folding is always left to the folding.
    private func asciiPrefix(_ subject: String, _ p: [UInt8]) -> Bool? {
        guard options.isEmpty || options.subtracting([.caseInsensitive, .simpleCaseFolding]).isEmpty else {
            return nil
        }
        let lowering = options.contains(.caseInsensitive)
        var bytes = subject.utf8.makeIterator()
        for expected in p {
            // An ASCII subject shorter than the pattern folds to one as short.
            guard let b = bytes.next() else { return false }
            guard lowering else {
                if b != expected { return false }
                continue
            }
            if b >= 0x80 { return nil }
            if (b &- 0x41 < 26 ? b + 0x20 : b) != expected { return false }
        }
        return true
    }
}
