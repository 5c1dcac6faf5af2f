import QuarryCore

/// A string column against a range of strings (comparisons, BETWEEN), after folding.
final class StringRangeLeaf: KeyLeaf {
    let strings: StringColumn
    let lower: (bytes: [UInt8], inclusive: Bool)?
    let upper: (bytes: [UInt8], inclusive: Bool)?
    let invert: Bool
    let folder: ByteFolder

    init(_ leaf: Leaf, access: KeyAccess, strings: StringColumn, lower: ([UInt8], Bool)?, upper: ([UInt8], Bool)?,
         invert: Bool, options: StringOptions, answers: SlotAnswers, selectivity: Double) {
        self.strings = strings
        self.lower = lower.map { (bytes: $0.0, inclusive: $0.1) }
        self.upper = upper.map { (bytes: $0.0, inclusive: $0.1) }
        self.invert = invert
        self.folder = ByteFolder(options)
        super.init(leaf, access: access, answers: answers, cost: options.isEmpty ? 10 : 75, selectivity: selectivity)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let invert = self.invert, folder = self.folder
        let lo = lower?.bytes ?? [], loIncl = lower?.inclusive ?? true, hasLo = lower != nil
        let hi = upper?.bytes ?? [], hiIncl = upper?.inclusive ?? true, hasHi = upper != nil
        let point = hasLo && hasHi && loIncl && hiIncl && lo == hi
        try lo.withUnsafeBufferPointer { (l) throws(Diagnostic) in
            try hi.withUnsafeBufferPointer { (h) throws(Diagnostic) in
                try strings.withBytes { (s) throws(Diagnostic) in
                    if point {
                        try drive(&b, ctx) { t in folder.fold(s.span(t)) { Bytes.equal($0, l) } != invert }
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
    let strings: StringColumn
    let set: ByteStringSet
    let invert: Bool
    let folder: ByteFolder

    init(_ leaf: Leaf, access: KeyAccess, strings: StringColumn, members: [[UInt8]], invert: Bool,
         options: StringOptions, answers: SlotAnswers, selectivity: Double) {
        self.strings = strings
        self.set = ByteStringSet(members)
        self.invert = invert
        self.folder = ByteFolder(options)
        super.init(leaf, access: access, answers: answers, cost: 10, selectivity: selectivity)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let set = self.set, invert = self.invert, folder = self.folder
        try strings.withBytes { (s) throws(Diagnostic) in
            try drive(&b, ctx) { t in folder.fold(s.span(t)) { set.contains($0) } != invert }
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

    init(_ leaf: Leaf, access: KeyAccess, strings: StringColumn, kind: Kind, pattern: [UInt8], invert: Bool,
         options: StringOptions, answers: SlotAnswers, selectivity: Double) {
        self.strings = strings
        self.kind = kind
        self.pattern = pattern
        self.invert = invert
        self.folder = ByteFolder(options)
        let base: Double = kind == .substring ? 50 : 10
        super.init(leaf, access: access, answers: answers, cost: options.isEmpty ? base : base + 25, selectivity: selectivity)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let invert = self.invert, folder = self.folder, kind = self.kind
        try pattern.withUnsafeBufferPointer { (p) throws(Diagnostic) in
            try strings.withBytes { (s) throws(Diagnostic) in
                switch kind {
                case .prefix:
                    try drive(&b, ctx) { t in folder.fold(s.span(t)) { Bytes.hasPrefix($0, p) } != invert }
                case .suffix:
                    try drive(&b, ctx) { t in folder.fold(s.span(t)) { Bytes.hasSuffix($0, p) } != invert }
                case .substring:
                    try drive(&b, ctx) { t in folder.fold(s.span(t)) { Bytes.contains($0, p) } != invert }
                }
            }
        }
    }
}

/// A string column tested through a String (general LIKE, regular expressions, text search):
/// the reference's own matchers, without the record lookup.
final class StringFunctionLeaf: KeyLeaf {
    let strings: StringColumn
    let test: (String) throws(Diagnostic) -> Bool
    let invert: Bool

    init(_ leaf: Leaf, access: KeyAccess, strings: StringColumn, invert: Bool, answers: SlotAnswers, cost: Double,
         selectivity: Double, mayThrow: Bool, test: @escaping (String) throws(Diagnostic) -> Bool) {
        self.strings = strings
        self.test = test
        self.invert = invert
        super.init(leaf, access: access, answers: answers, cost: cost, selectivity: selectivity, mayThrow: mayThrow)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let test = self.test, invert = self.invert
        try strings.withBytes { (s) throws(Diagnostic) in
            try driveThrowing(&b, ctx) { (t) throws(Diagnostic) in try test(s.string(t)) != invert }
        }
    }
}
