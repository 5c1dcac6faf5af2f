import QuarryCore

/// A string column against a range of strings (comparisons, BETWEEN), after folding.
final class StringRangeLeaf: KeyLeaf {
    /// A range's bounds: each its (folded) bytes and whether it is included; nil for none.
    struct Bounds {
        let lower: (bytes: [UInt8], inclusive: Bool)?
        let upper: (bytes: [UInt8], inclusive: Bool)?
        init(_ lower: ([UInt8], Bool)?, _ upper: ([UInt8], Bool)?) {
            self.lower = lower.map { (bytes: $0.0, inclusive: $0.1) }
            self.upper = upper.map { (bytes: $0.0, inclusive: $0.1) }
        }
    }

    let strings: StringColumn
    let bounds: Bounds
    let invert: Bool
    let folder: ByteFolder
    /// The bounds for the execution's literals, when the leaf reads them (docs/ARCHITECTURE.md#plan-parameters).
    let boundsOf: Parameter<Bounds>?

    init(
        _ leaf: Leaf, access: KeyAccess, strings: StringColumn, lower: ([UInt8], Bool)?, upper: ([UInt8], Bool)?,
        invert: Bool, options: StringOptions, answers: SlotAnswers, selectivity: Double,
        parameter: Parameter<Bounds>? = nil
    ) {
        self.strings = strings
        bounds = Bounds(lower, upper)
        self.invert = invert
        self.folder = ByteFolder(options)
        boundsOf = parameter
        super.init(
            leaf, access: access, answers: answers, cost: options.isEmpty ? 10 : 75, selectivity: selectivity,
            parameterSlots: parameter?.slots)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let invert = self.invert, folder = self.folder
        let bounds = boundsOf?.madeValue(ctx, for: self) ?? self.bounds, lower = bounds.lower, upper = bounds.upper
        let lo = lower?.bytes ?? [], loIncl = lower?.inclusive ?? true, hasLo = lower != nil
        let hi = upper?.bytes ?? [], hiIncl = upper?.inclusive ?? true, hasHi = upper != nil
        let point = hasLo && hasHi && loIncl && hiIncl && lo == hi
        try lo.withUnsafeBufferPointer { (l) throws(Diagnostic) in
            try hi.withUnsafeBufferPointer { (h) throws(Diagnostic) in
                try strings.withBytes { (s) throws(Diagnostic) in
                    if point {
                        if folder.options.isEmpty, l.count <= 8 {
                            let test = ShortWords(s: s, lengths: [l.count], words: [Bytes.word(lo)], invert: invert)
                            try drive(&b, ctx) { t in test.passes(t) }
                        } else if folder.options.isEmpty {
                            try drive(&b, ctx) { t in Bytes.equal(s.span(t), l) != invert }
                        } else {
                            let lower = folder.lowercase
                            try drive(&b, ctx) { t in
                                let x = s.span(t)
                                return
                                    (Bytes.asciiFoldedEqual(x, l, lowercase: lower)
                                    ?? folder.fold(x) { Bytes.equal($0, l) }) != invert
                            }
                        }
                        return
                    }
                    try drive(&b, ctx) { t in
                        folder.fold(s.span(t)) { x in
                            if hasLo {
                                let c = Bytes.compare(x, l)
                                if c < 0 || (c == 0 && !loIncl) { return invert }
                            }
                            if hasHi {
                                let c = Bytes.compare(x, h)
                                if c > 0 || (c == 0 && !hiIncl) { return invert }
                            }
                            return !invert
                        }
                    }
                }
            }
        }
    }
}

/// A string column against a set of strings (IN lists, inner values), after folding.
final class StringSetLeaf: KeyLeaf {
    /// An IN list's strings, hashed, and as words when there are few and all are short (no options).
    struct Members {
        let set: ByteStringSet
        let short: (lengths: [Int], words: [UInt64])?
        init(_ members: [[UInt8]], options: StringOptions) {
            set = ByteStringSet(members)
            short =
                options.isEmpty && members.count <= 16 && members.allSatisfy({ $0.count <= 8 })
                // Closures, not `\.count`: applying a key path here cost a tenth of planning an IN list.
                ? (members.map { $0.count }, members.map { Bytes.word($0) }) : nil
        }
    }

    let strings: StringColumn
    let members: Members
    let invert: Bool
    let folder: ByteFolder
    /// The members for the execution's literals, when the leaf reads them (docs/ARCHITECTURE.md#plan-parameters).
    let membersOf: Parameter<Members>?

    init(
        _ leaf: Leaf, access: KeyAccess, strings: StringColumn, members: [[UInt8]], invert: Bool,
        options: StringOptions, answers: SlotAnswers, selectivity: Double, parameter: Parameter<Members>? = nil
    ) {
        self.strings = strings
        self.members = Members(members, options: options)
        self.invert = invert
        self.folder = ByteFolder(options)
        membersOf = parameter
        super.init(
            leaf, access: access, answers: answers, cost: 10, selectivity: selectivity,
            parameterSlots: parameter?.slots)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let members = membersOf?.madeValue(ctx, for: self) ?? self.members
        let set = members.set, invert = self.invert, folder = self.folder
        try strings.withBytes { (s) throws(Diagnostic) in
            if let short = members.short {
                let test = ShortWords(s: s, lengths: short.lengths, words: short.words, invert: invert)
                try drive(&b, ctx) { t in test.passes(t) }
            } else {
                try drive(&b, ctx) { t in folder.fold(s.span(t)) { set.contains($0) } != invert }
            }
        }
    }
}

/// Prefix, suffix and substring tests on a string column, after folding.
final class StringAffixLeaf: KeyLeaf {
    enum Kind { case prefix, suffix, substring }
    let strings: StringColumn
    let kind: Kind
    let pattern: [UInt8]
    let invert: Bool
    let folder: ByteFolder
    /// The folded text for the execution's literal, when the leaf reads it (docs/ARCHITECTURE.md#plan-parameters).
    let patternOf: Parameter<[UInt8]>?
    private let memo = EntryMemo()

    init(
        _ leaf: Leaf, access: KeyAccess, strings: StringColumn, kind: Kind, pattern: [UInt8], invert: Bool,
        options: StringOptions, answers: SlotAnswers, selectivity: Double, parameter: Parameter<[UInt8]>? = nil
    ) {
        self.strings = strings
        self.kind = kind
        self.pattern = pattern
        self.invert = invert
        self.folder = ByteFolder(options)
        patternOf = parameter
        let base: Double = kind == .substring ? 50 : 10
        super.init(
            leaf, access: access, answers: answers, cost: options.isEmpty ? base : base + 25, selectivity: selectivity,
            parameterSlots: parameter?.slots)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let invert = self.invert, folder = self.folder, kind = self.kind, memo = self.memo
        let pattern = patternOf?.madeValue(ctx, for: self) ?? self.pattern
        // The memo's answers hold for one text; an execution with another starts it again.
        memo.answering(pattern)
        try pattern.withUnsafeBufferPointer { (p) throws(Diagnostic) in
            try strings.withBytes { (s) throws(Diagnostic) in
                switch kind {
                case .prefix where p.count <= 8:
                    let test = ShortPrefix(
                        s: s, p: p, n: p.count, word: Bytes.word(pattern),
                        high: 0x8080_8080_8080_8080 & Bytes.mask(p.count),
                        plain: folder.options.isEmpty, lowercase: folder.lowercase, invert: invert, leaf: self)
                    try drive(&b, ctx) { t in test.passes(t) }
                case .prefix where folder.options.isEmpty:
                    try drive(&b, ctx) { t in Bytes.hasPrefix(s.span(t), p) != invert }
                case .prefix:
                    let lower = folder.lowercase
                    try drive(&b, ctx) { t in
                        let x = s.span(t)
                        return
                            (Bytes.asciiFoldedPrefix(x, p, lowercase: lower)
                            ?? folder.fold(x) { Bytes.hasPrefix($0, p) }) != invert
                    }
                case .suffix:
                    try drive(&b, ctx) { t in
                        memo.answer(s, t) { x in folder.fold(x) { Bytes.hasSuffix($0, p) } } != invert
                    }
                case .substring where folder.options.isEmpty:
                    try drive(&b, ctx) { t in memo.answer(s, t) { Bytes.contains($0, p) } != invert }
                case .substring where Bytes.isASCII(p):
                    // ASCII rows are decided on their own bytes; only others are folded.
                    let lower = folder.lowercase
                    try drive(&b, ctx) { t in
                        memo.answer(s, t) { x in
                            Bytes.asciiFoldedContains(x, p, lowercase: lower)
                                ?? folder.fold(x) { Bytes.contains($0, p) }
                        } != invert
                    }
                case .substring:
                    try drive(&b, ctx) { t in
                        memo.answer(s, t) { x in folder.fold(x) { Bytes.contains($0, p) } } != invert
                    }
                }
            }
        }
    }
}

/// Equality with one of a few strings of at most eight bytes: the row's length, then its
/// bytes as one word. (A struct rather than a closure so that the test inlines into the scan.)
private struct ShortWords {
    let s: StringSpans
    let lengths: [Int]
    let words: [UInt64]
    let invert: Bool

    @inline(__always)
    func passes(_ t: Int) -> Bool {
        let n = s.count(t)
        guard n <= 8 else { return invert }
        let w = Bytes.load(s.bytes, s.start(t), n)
        for i in 0..<lengths.count where lengths[i] == n && words[i] == w { return !invert }
        return invert
    }
}

/// A prefix of at most eight bytes, tested as one word per row: the row's first bytes,
/// lowercased when ASCII under [c]; anything else goes to the general test, out of line.
/// (A struct rather than a closure so that the test inlines into the scan loop.)
private struct ShortPrefix {
    let s: StringSpans
    let p: UnsafeBufferPointer<UInt8>
    let n: Int
    let word: UInt64
    let high: UInt64
    let plain: Bool
    let lowercase: Bool
    let invert: Bool
    unowned let leaf: StringAffixLeaf

    @inline(__always)
    func passes(_ t: Int) -> Bool {
        if s.count(t) >= n {
            let w = Bytes.load(s.bytes, s.start(t), n)
            if plain { return (w == word) != invert }
            if w & high == 0 { return ((lowercase ? Bytes.lowerWord(w) : w) == word) != invert }
        } else if plain {
            return invert
        }
        return leaf.foldedPrefix(s.span(t), p) != invert
    }
}

extension StringAffixLeaf {
    /// The prefix test through the folder, for rows the word test cannot decide.
    @inline(never)
    func foldedPrefix(_ x: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
        Bytes.asciiFoldedPrefix(x, p, lowercase: folder.lowercase) ?? folder.fold(x) { Bytes.hasPrefix($0, p) }
    }
}

/// A string column tested through a String (general LIKE, regular expressions, text search):
/// the reference's own matchers, without the record lookup.
final class StringFunctionLeaf: KeyLeaf {
    let strings: StringColumn
    let test: (String) throws(Diagnostic) -> Bool
    let invert: Bool
    private let memo = EntryMemo()

    init(
        _ leaf: Leaf, access: KeyAccess, strings: StringColumn, invert: Bool, answers: SlotAnswers, cost: Double,
        selectivity: Double, mayThrow: Bool, test: @escaping (String) throws(Diagnostic) -> Bool
    ) {
        self.strings = strings
        self.test = test
        self.invert = invert
        super.init(leaf, access: access, answers: answers, cost: cost, selectivity: selectivity, mayThrow: mayThrow)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let test = self.test, invert = self.invert, memo = self.memo
        try strings.withBytes { (s) throws(Diagnostic) in
            try driveThrowing(&b, ctx) { (t) throws(Diagnostic) in
                try memo.answer(s, t) { (x) throws(Diagnostic) in try test(String(decoding: x, as: UTF8.self)) }
                    != invert
            }
        }
    }
}
