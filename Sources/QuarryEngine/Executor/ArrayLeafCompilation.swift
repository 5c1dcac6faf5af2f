import QuarryCore

extension FilterCompiler {
    /// Leaves over an array column. NSPredicate compares the array as one value (never equal
    /// to a scalar, never ordered); SQL and Parse test its elements.
    func arrayLeaf(_ l: Leaf, _ access: KeyAccess, _ arrays: ArrayColumn, _ answers: SlotAnswers) -> FilterNode? {
        let neg = l.negated
        switch l.condition {
        case .arraySize(_, let n):
            return ArraySizeLeaf(l, access: access, arrays: arrays, size: n, answers: answers)
        case .isNull:
            if l.semantics == .sql { return ArrayEmptyLeaf(l, access: access, arrays: arrays, answers: answers) }
            return SlotLeaf(l, access: access, whenValue: neg, answers: answers, selectivity: neg ? 0.9 : 0.1)
        default:
            break
        }
        if l.semantics == .predicate {
            // One value, an array, against scalars: only `!=` holds.
            switch l.condition {
            case .compare(_, let op, .literal(let c), _) where c.isScalarLiteral:
                let raw: Bool? = op == .eq ? false : (op == .ne ? true : nil)
                let whenValue = raw.map { $0 != neg } ?? neg
                return SlotLeaf(l, access: access, whenValue: whenValue, answers: answers, selectivity: whenValue ? 0.9 : 0.01)
            case .inCollection(_, .list(let items), _) where items.allSatisfy({ if case .literal(let v) = $0 { return v.isScalarLiteral } else { return false } }):
                return SlotLeaf(l, access: access, whenValue: neg, answers: answers, selectivity: neg ? 0.9 : 0.01)
            case .string:
                return SlotLeaf(l, access: access, whenValue: neg, answers: answers, selectivity: neg ? 0.9 : 0.01)
            default:
                return nil
            }
        }
        guard arrays.elements.statistics.others == 0 else { return nil }
        // Parse's `$ne` on an array: no element (nor the array) equals the value.
        if l.semantics == .document, case .compare(let a, .ne, let b, let o) = l.condition {
            var equality = l
            equality.condition = .compare(a, .eq, b, o)
            guard let test = elementTest(equality, arrays.elements) else { return nil }
            return ArrayElementsLeaf(l, access: access, arrays: arrays, test: test, invertResult: true, answers: answers,
                                     selectivity: 0.8)
        }
        guard let test = elementTest(l, arrays.elements) else { return nil }
        return ArrayElementsLeaf(l, access: access, arrays: arrays, test: test, answers: answers, selectivity: 0.2)
    }

    /// The per-element test of a leaf, typed by the element column.
    private func elementTest(_ l: Leaf, _ elements: Column) -> ArrayElementsLeaf.Test? {
        let s = l.semantics
        switch l.condition {
        case .compare(_, let op, .literal(let c), let options):
            guard let t = TypedLiteral.classify(c, column: elements, semantics: s, options: options, store: store) else { return nil }
            switch (elements, t) {
            case (is Int64Column, .int(let i)): return .ints(IntRange(op, i))
            case (is Int64Column, .fraction(let d)): return .ints(IntRange(op, fraction: d))
            case (is DoubleColumn, .double(let d)): return .doubles(DoubleRange(op, d))
            case (is BoolColumn, .bool(let b)): return .bools(IntRange(op, b ? 1 : 0))
            case (is StringColumn, .string(let bytes)):
                let folder = ByteFolder(options)
                switch op {
                case .eq: return .strings(lower: (bytes, true), upper: (bytes, true), invert: false, folder: folder)
                case .ne: return .strings(lower: (bytes, true), upper: (bytes, true), invert: true, folder: folder)
                case .lt: return .strings(lower: nil, upper: (bytes, false), invert: false, folder: folder)
                case .le: return .strings(lower: nil, upper: (bytes, true), invert: false, folder: folder)
                case .gt: return .strings(lower: (bytes, false), upper: nil, invert: false, folder: folder)
                case .ge: return .strings(lower: (bytes, true), upper: nil, invert: false, folder: folder)
                }
            case (_, .incomparable):
                return .constant(op == .eq ? false : (op == .ne ? true : nil))
            default:
                return nil
            }
        case .inCollection(_, .list(let items), let options):
            var typed: [TypedLiteral] = []
            for item in items {
                guard case .literal(let v) = item else { return nil }
                if v.isNull {
                    // Parse matches a null member against null elements; SQL never matches it.
                    guard s == .sql else { return nil }
                    continue
                }
                guard let t = TypedLiteral.classify(v, column: elements, semantics: s, options: options, store: store)
                else { return nil }
                typed.append(t)
            }
            switch elements {
            case is Int64Column:
                return .intSet(Set(typed.compactMap { if case .int(let i) = $0 { return i } else { return nil } }))
            case is DoubleColumn:
                let ds = typed.compactMap { if case .double(let d) = $0 { return d } else { return nil } }
                return .doubleSet(Set(ds.filter { !$0.isNaN }.map { ($0 == 0 ? 0.0 : $0).bitPattern }), nan: ds.contains { $0.isNaN })
            case is StringColumn:
                return .stringSet(ByteStringSet(typed.compactMap { if case .string(let b) = $0 { return b } else { return nil } }),
                                  folder: ByteFolder(options))
            default:
                return nil
            }
        case .string(_, let op, .literal(.string(let pattern)), let options):
            guard elements is StringColumn else { return .constant(nil) }
            let folded = Array(StringFolding.fold(pattern, options).utf8)
            switch op {
            case .beginsWith: return .affix(.prefix, folded, folder: ByteFolder(options))
            case .endsWith: return .affix(.suffix, folded, folder: ByteFolder(options))
            case .contains: return .affix(.substring, folded, folder: ByteFolder(options))
            default: return nil
            }
        default:
            return nil
        }
    }
}

extension Value {
    /// Literals whose comparison with an array is decided without looking at the array.
    var isScalarLiteral: Bool {
        switch self {
        case .bool, .int, .double, .string, .date, .geoPoint, .pointer, .bytes, .file, .polygon: return true
        default: return false
        }
    }
}
