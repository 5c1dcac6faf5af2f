import QuarryCore

/// A regular expression (`$regex`, MATCHES) on a string column: PCRE2 runs on each row's bytes
/// in the arena with one reused match data, under the same match and depth budgets as the
/// reference (so `limit.regex` fails on the same first row). Under `[d]` diacritics are
/// stripped from the subject first, which changes only rows with non-ASCII bytes.
final class StringRegexLeaf: KeyLeaf {
    let strings: StringColumn
    let regex: CompiledRegex
    let data: RegexMatchData
    let stripsDiacritics: Bool
    let invert: Bool
    /// The compiled pattern for the execution's literal, when the leaf reads it
    /// (docs/ARCHITECTURE.md#plan-parameters).
    let regexOf: Parameter<Result<CompiledRegex, Diagnostic>>?
    private let memo = EntryMemo()

    init(
        _ leaf: Leaf, access: KeyAccess, strings: StringColumn, regex: CompiledRegex, data: RegexMatchData,
        stripsDiacritics: Bool, invert: Bool, answers: SlotAnswers,
        parameter: Parameter<Result<CompiledRegex, Diagnostic>>? = nil
    ) {
        self.strings = strings
        self.regex = regex
        self.data = data
        self.stripsDiacritics = stripsDiacritics
        self.invert = invert
        regexOf = parameter
        super.init(
            leaf, access: access, answers: answers, cost: 100, selectivity: 0.25, mayThrow: true,
            parameterSlots: parameter?.slots)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let regex = try regexOf?.madeValue(ctx, for: self)?.get() ?? self.regex
        let data = self.data, invert = self.invert, strips = stripsDiacritics, memo = self.memo
        let budget = ctx.run.budget, pattern = regex.pattern
        // The memo's answers hold for one pattern; an execution with another starts it again.
        if regexOf != nil { memo.answering(ctx.made(by: self) { Array(pattern.utf8) }) }
        try strings.withBytes { (s) throws(Diagnostic) in
            try driveThrowing(&b, ctx) { (t) throws(Diagnostic) in
                try memo.answer(s, t, charging: budget, pattern: pattern) { (x) throws(Diagnostic) in
                    try regex.matches(x, data, strippingDiacritics: strips, budget: budget)
                } != invert
            }
        }
    }
}

/// A regular expression on the string elements of an array (or of a list's targets), under
/// `.sql` (some non-null element matches, negation per element) or `.document` (some element
/// matches; negation is NOT). Elements are matched in order, so a budget error is the one the
/// reference meets first.
final class ArrayRegexLeaf: KeyLeaf {
    let source: ElementSource
    let regex: CompiledRegex
    let data: RegexMatchData
    let stripsDiacritics: Bool
    let perElementNegation: Bool
    let resultNegation: Bool
    /// The compiled pattern for the execution's literal, when the leaf reads it.
    let regexOf: Parameter<Result<CompiledRegex, Diagnostic>>?

    init(
        _ leaf: Leaf, access: KeyAccess, source: ElementSource, regex: CompiledRegex, data: RegexMatchData,
        stripsDiacritics: Bool, answers: SlotAnswers, parameter: Parameter<Result<CompiledRegex, Diagnostic>>? = nil
    ) {
        self.source = source
        self.regex = regex
        self.data = data
        self.stripsDiacritics = stripsDiacritics
        perElementNegation = leaf.semantics == .sql && leaf.negated
        resultNegation = leaf.semantics == .document && leaf.negated
        regexOf = parameter
        super.init(
            leaf, access: access, answers: answers, cost: 150, selectivity: 0.25, mayThrow: true,
            parameterSlots: parameter?.slots)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        guard let strings = source.elements as? StringColumn else { return }
        let regex = try regexOf?.madeValue(ctx, for: self)?.get() ?? self.regex
        let data = self.data, strips = stripsDiacritics, budget = ctx.run.budget
        let en = perElementNegation, rn = resultNegation, mapped = source.targets != nil
        try source.starts.withUnsafeBufferPointer { (starts) throws(Diagnostic) in
            try source.counts.withUnsafeBufferPointer { (counts) throws(Diagnostic) in
                try (source.targets ?? []).withUnsafeBufferPointer { (targets) throws(Diagnostic) in
                    try strings.slots.withUnsafeBufferPointer { (slots) throws(Diagnostic) in
                        try strings.withBytes { (s) throws(Diagnostic) in
                            try driveThrowing(&b, ctx) { (t) throws(Diagnostic) in
                                let start = Int(starts[t])
                                for i in start..<start + Int(counts[t]) {
                                    let e = mapped ? Int(targets[i]) : i
                                    guard e >= 0, slots[e] == Slot.value.rawValue else { continue }
                                    let x = s.span(e)
                                    if try regex.matches(x, data, strippingDiacritics: strips, budget: budget) != en {
                                        return !rn
                                    }
                                }
                                return rn
                            }
                        }
                    }
                }
            }
        }
    }
}

extension CompiledRegex {
    /// Matches stored UTF-8 bytes; under `[d]` the subject loses its diacritics first, which
    /// only changes subjects with non-ASCII bytes (those are decoded, the rest matched in place).
    func matches(
        _ x: UnsafeBufferPointer<UInt8>, _ data: RegexMatchData, strippingDiacritics: Bool,
        budget: QueryBudget
    ) throws(Diagnostic) -> Bool {
        if strippingDiacritics, !Bytes.isASCII(x) {
            return try matches(StringFolding.stripDiacritics(String(decoding: x, as: UTF8.self)), budget: budget)
        }
        return try matches(x, data, budget: budget)
    }
}
