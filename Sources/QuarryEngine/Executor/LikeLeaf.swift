import QuarryCore

/// A LIKE pattern (SQL or glob) over the UTF-8 bytes of a folded string: literal scalars as
/// their bytes, `_`/`?` as one whole scalar, `%`/`*` as any run of scalars. Because UTF-8 is
/// prefix-free and the matcher only ever stops or restarts on scalar boundaries, this is
/// `LikePattern.matches` on scalars, without decoding. Same single-backtrack algorithm, so no
/// pattern takes more than O(pattern × subject) steps.
struct ByteLikePattern {
    /// A byte (0...255), `one` or `any`.
    private let tokens: [Int16]
    private static let one: Int16 = -1
    private static let any: Int16 = -2

    init(_ pattern: LikePattern) {
        var tokens: [Int16] = []
        for t in pattern.tokens {
            switch t {
            case .any: tokens.append(Self.any)
            case .one: tokens.append(Self.one)
            case .scalar(let u): for b in String(u).utf8 { tokens.append(Int16(b)) }
            }
        }
        self.tokens = tokens
    }

    /// The length of the scalar whose lead byte is `b` (1 for a stray continuation byte, which
    /// valid stored strings never present here).
    @inline(__always)
    private static func scalarLength(_ b: UInt8) -> Int {
        b < 0xC0 ? 1 : (b < 0xE0 ? 2 : (b < 0xF0 ? 3 : 4))
    }

    func matches(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        tokens.withUnsafeBufferPointer { p in
            let n = s.count
            var si = 0, pi = 0
            var star = -1, starSubject = 0
            while si < n {
                if pi < p.count {
                    let t = p[pi]
                    if t == Self.any {
                        star = pi
                        starSubject = si
                        pi += 1
                        continue
                    }
                    if t == Self.one {
                        si = Swift.min(n, si + Self.scalarLength(s[si]))
                        pi += 1
                        continue
                    }
                    if t == Int16(s[si]) {
                        si += 1
                        pi += 1
                        continue
                    }
                }
                guard star >= 0 else { return false }
                starSubject = Swift.min(n, starSubject + Self.scalarLength(s[starSubject]))
                si = starSubject
                pi = star + 1
            }
            while pi < p.count, p[pi] == Self.any { pi += 1 }
            return pi == p.count
        }
    }
}

/// LIKE with inner wildcards (`J_n%`, `%a%b%`) on a string column: the pattern matched on the
/// folded bytes of each row (ASCII rows folded in a reused buffer, others through
/// `StringFolding`). Simpler patterns are rewritten to prefix / suffix / substring tests by the
/// normalizer before they get here.
final class StringLikeLeaf: KeyLeaf {
    let strings: StringColumn
    let pattern: ByteLikePattern
    let invert: Bool
    let folder: ByteFolder
    private let memo = EntryMemo()

    init(
        _ leaf: Leaf, access: KeyAccess, strings: StringColumn, pattern: LikePattern, invert: Bool,
        answers: SlotAnswers
    ) {
        self.strings = strings
        self.pattern = ByteLikePattern(pattern)
        self.invert = invert
        self.folder = ByteFolder(pattern.options)
        super.init(leaf, access: access, answers: answers, cost: pattern.options.isEmpty ? 30 : 50, selectivity: 0.25)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let pattern = self.pattern, invert = self.invert, folder = self.folder, memo = self.memo
        try strings.withBytes { (s) throws(Diagnostic) in
            try drive(&b, ctx) { t in memo.answer(s, t) { x in folder.fold(x) { pattern.matches($0) } } != invert }
        }
    }
}
