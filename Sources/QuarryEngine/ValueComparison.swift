import QuarryCore

/// Equality and order between two reached values, shared by every leaf
/// (docs/SEMANTICS.md#equality-of-values): numbers by value across int and double, strings by
/// scalars after folding with the options, pointers (and embedded objects) by class and objectId.
struct ValueComparison {
    /// Folded strings of the current run; bounded so that a large scan cannot grow it without
    /// limit (literals are folded first, so they are the ones that stay).
    final class FoldCache {
        // Keyed by `Value.string`, which compares scalars: a `String` key would compare by
        // canonical equivalence and hand `e\u{301}` the folding of `é`.
        private var folded: [StringOptions.RawValue: [Value: String]] = [:]
        private var count = 0
        private let capacity = 4096

        func fold(_ s: String, _ options: StringOptions) -> String {
            if options.isEmpty { return s }
            let key = Value.string(s)
            if let hit = folded[options.rawValue]?[key] { return hit }
            let f = StringFolding.fold(s, options)
            if count < capacity {
                folded[options.rawValue, default: [:]][key] = f
                count += 1
            }
            return f
        }
    }

    let folds: FoldCache

    /// Equality of two non-missing values. Under `.document`, a plain string equals a pointer
    /// whose objectId it is.
    func equal(_ a: Value, _ b: Value, _ options: StringOptions, _ semantics: LeafSemantics) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)):
            if options.isEmpty { return a == b }
            return String.sameUTF8(folds.fold(x, options), folds.fold(y, options))
        default:
            switch (a.objectIdentity, b.objectIdentity) {
            case (let x?, let y?): return Value.pointer(x) == Value.pointer(y)
            case (let x?, nil): return semantics == .document && b == .string(x.objectId)
            case (nil, let y?): return semantics == .document && a == .string(y.objectId)
            case (nil, nil): return a == b
            }
        }
    }

    /// Order of two values of comparable types (-1, 0, 1); nil when they cannot be ordered
    /// (different types, pointers, arrays, objects, null).
    func order(_ a: Value, _ b: Value, _ options: StringOptions) -> Int? {
        if !options.isEmpty, case .string(let x) = a, case .string(let y) = b {
            return Value.compareStrings(folds.fold(x, options), folds.fold(y, options))
        }
        return Value.compareOrdered(a, b)
    }

    /// `a op b` for two non-missing values: equality is always decided, an ordered comparison
    /// between values that cannot be ordered is nil (unknown).
    func compare(
        _ a: Value, _ op: ComparisonOperator, _ b: Value, _ options: StringOptions,
        _ semantics: LeafSemantics
    ) -> Bool? {
        switch op {
        case .eq: return equal(a, b, options, semantics)
        case .ne: return !equal(a, b, options, semantics)
        default: return order(a, b, options).map(op.accepts)
        }
    }
}
