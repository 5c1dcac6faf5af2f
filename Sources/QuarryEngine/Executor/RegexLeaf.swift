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
    private let memo = EntryMemo()

    init(_ leaf: Leaf, access: KeyAccess, strings: StringColumn, regex: CompiledRegex, data: RegexMatchData,
         stripsDiacritics: Bool, invert: Bool, answers: SlotAnswers) {
        self.strings = strings
        self.regex = regex
        self.data = data
        self.stripsDiacritics = stripsDiacritics
        self.invert = invert
        super.init(leaf, access: access, answers: answers, cost: 100, selectivity: 0.25, mayThrow: true)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let regex = self.regex, data = self.data, invert = self.invert, strips = stripsDiacritics, memo = self.memo
        try strings.withBytes { (s) throws(Diagnostic) in
            try driveThrowing(&b, ctx) { (t) throws(Diagnostic) in
                try memo.answer(s, t) { (x) throws(Diagnostic) in
                    if strips, !Bytes.isASCII(x) {
                        return try regex.matches(StringFolding.stripDiacritics(String(decoding: x, as: UTF8.self)))
                    }
                    return try regex.matches(x, data)
                } != invert
            }
        }
    }
}
