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
        case .containsAll(_, let list), .containedBy(_, let list):
            guard arrays.elements.statistics.others == 0, let members = list.literalValues else { return nil }
            var mode = ArrayListLeaf.Mode.containsAll
            if case .containedBy = l.condition { mode = .containedBy }
            // The members of the execution's list, as the column compares them: a new member
            // of another kind (a pointer, an array) plans again.
            let kind = arrays.elements.kind, document = l.semantics == .document
            let parameter = parameterSlots(
                l, key: access.path, count: members.count, check: { $0.isNull || Self.isPlainScalar($0) }
            ).map { slots in Parameter(slots: slots) { $0.map { ArrayListLeaf.member($0, kind, document: document) } } }
            return ArrayListLeaf(
                l, access: access, elements: ElementSource(arrays), mode: mode, list: members, answers: answers,
                parameter: parameter)
        case .quantified(let q, _, let variable, let p):
            return quantified(l, q, variable, p, access, elements: arrays.elements, arrays: arrays, answers)
        default:
            return elementsLeaf(l, access, ElementSource(arrays), answers)
        }
    }

    /// A member `ArrayListLeaf.member` types by its value's kind alone.
    private static func isPlainScalar(_ v: Value) -> Bool {
        switch v {
        case .bool, .int, .double, .string, .date: return true
        default: return false
        }
    }

    /// A key path through a list of pointers to a field of the targets (`rel.name`): an array
    /// of the targets' values, tested like an array column's elements.
    func listLeaf(
        _ l: Leaf, _ access: KeyAccess, _ list: PointerListColumn, _ column: Column,
        _ answers: SlotAnswers
    ) -> FilterNode? {
        // Arrays reached at the targets would be spliced in: only scalar columns here.
        guard column.statistics.multiValued == 0, column.statistics.others == 0 else { return nil }
        if case .isNull = l.condition {
            // The path reaches an array (a value), which SQL looks into, and Parse's `$exists`
            // counts only when some target has the field.
            guard l.semantics == .predicate else { return nil }
            return SlotLeaf(
                l, access: access, whenValue: l.negated, answers: answers, selectivity: l.negated ? 0.9 : 0.1)
        }
        // `rel.objectId`: a dangling element reaches its own id, which only the stored list has.
        let asks = access.path.components.last == "objectId"
        if asks, case .string(_, .matches, _, _) = l.condition { return nil }
        return elementsLeaf(l, access, ElementSource(list, column, danglingAsks: asks), answers)
    }

    /// The tests an array shares with its elements: NSPredicate's array-as-one-value answers,
    /// SQL's and Parse's element tests.
    private func elementsLeaf(_ l: Leaf, _ access: KeyAccess, _ source: ElementSource, _ answers: SlotAnswers)
        -> FilterNode?
    {
        let neg = l.negated
        if l.semantics == .sql, case .compare(_, _, .literal(.null), _) = l.condition {
            // Nothing compares with null under SQL.
            return SlotLeaf(l, access: access, whenValue: false, answers: answers, selectivity: 0)
        }
        if l.semantics == .predicate {
            // One value, an array, against scalars (and nil): only `!=` holds.
            switch l.condition {
            case .compare(_, let op, .literal(let c), _) where c.isScalarLiteral || c.isNull:
                let raw: Bool? = op == .eq ? false : (op == .ne ? true : nil)
                let whenValue = raw.map { $0 != neg } ?? neg
                return SlotLeaf(
                    l, access: access, whenValue: whenValue, answers: answers, selectivity: whenValue ? 0.9 : 0.01)
            case .inCollection(_, .list(let items), _)
            where items.allSatisfy({ $0.literalValue.map { $0.isScalarLiteral || $0.isNull } ?? false }):
                return SlotLeaf(l, access: access, whenValue: neg, answers: answers, selectivity: neg ? 0.9 : 0.01)
            case .string, .between(_, .literal, .literal), .text:
                // A string test on an array, or an array between two values: false.
                return SlotLeaf(l, access: access, whenValue: neg, answers: answers, selectivity: neg ? 0.9 : 0.01)
            default:
                return nil
            }
        }
        guard source.elements.statistics.others == 0 else { return nil }
        if l.semantics == .document, case .compare(_, let op, .literal(.null), _) = l.condition, source.targets == nil {
            // Parse's equality with null: some element is null (the array itself is not).
            guard op == .eq || op == .ne else {
                return SlotLeaf(l, access: access, whenValue: neg, answers: answers, selectivity: 0.5)
            }
            return ArrayListLeaf(
                l, access: access, elements: source, mode: .containsAll, list: [.null], invertResult: op == .ne,
                answers: answers)
        }
        // Parse's `$ne` on an array: no element (nor the array) equals the value.
        if l.semantics == .document, case .compare(let a, .ne, let b, let o) = l.condition {
            var equality = l
            equality.condition = .compare(a, .eq, b, o)
            guard let test = elementTest(equality, source.elements) else { return nil }
            return ArrayElementsLeaf(
                l, access: access, source: source, test: test, invertResult: true, answers: answers,
                selectivity: 0.8)
        }
        if case .string(_, .matches(let regexOptions), .literal(.string(let pattern)), let options) = l.condition {
            guard source.elements is StringColumn else {
                return SlotLeaf(l, access: access, whenValue: Self.unknown(l), answers: answers, selectivity: 0.01)
            }
            guard let regex = try? memo.regex(pattern, regexOptions, options, limits),
                let data = try? regex.makeMatchData()
            else { return nil }
            return ArrayRegexLeaf(
                l, access: access, source: source, regex: regex, data: data,
                stripsDiacritics: options.contains(.diacriticInsensitive), answers: answers,
                parameter: regexParameter(l, access, regexOptions, options))
        }
        guard let test = elementTest(l, source.elements) else { return nil }
        return ArrayElementsLeaf(
            l, access: access, source: source, test: test, answers: answers, selectivity: 0.2,
            parameter: elementParameter(l, access, source.elements))
    }

    /// A comparison's element test made from the execution's literal (`tags = 'a1'` for other
    /// tags): the test `elementTest` makes of the leaf with that literal in its place.
    private func elementParameter(_ l: Leaf, _ access: KeyAccess, _ elements: Column)
        -> Parameter<ArrayElementsLeaf.Test>?
    {
        guard case .compare(_, let op, .literal, let options) = l.condition else { return nil }
        // The leaf's one literal is the comparison's: its test is made without making the leaf.
        let test = { [self] (literal: Value) in comparisonTest(op, literal, options, l.semantics, elements) }
        guard let slots = parameterSlots(l, key: access.path, count: 1, check: { test($0) != nil }) else {
            return nil
        }
        return Parameter(slots: slots) { test($0[$0.startIndex]) }
    }

    /// The per-element test of `element op c`, typed by the element column.
    private func comparisonTest(
        _ op: ComparisonOperator, _ c: Value, _ options: StringOptions, _ s: LeafSemantics, _ elements: Column
    ) -> ArrayElementsLeaf.Test? {
        guard let t = TypedLiteral.classify(c, column: elements, semantics: s, options: options, store: store)
        else { return nil }
        switch (elements, t) {
        case (is Int64Column, .int(let i)): return .ints(IntRange(op, i))
        case (is Int64Column, .fraction(let d)): return .ints(IntRange(op, fraction: d))
        case (is DoubleColumn, .double(let d)): return .doubles(DoubleRange(op, d))
        case (is BoolColumn, .bool(let b)): return .bools(IntRange(op, b ? 1 : 0))
        case (is StringColumn, .string(let bytes)):
            if options.isEmpty, op == .eq || op == .ne { return .stringEqual(bytes, invert: op == .ne) }
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
    }

    /// The per-element test of a leaf, typed by the element column.
    func elementTest(_ l: Leaf, _ elements: Column) -> ArrayElementsLeaf.Test? {
        let s = l.semantics
        switch l.condition {
        case .compare(_, let op, .literal(let c), let options):
            return comparisonTest(op, c, options, s, elements)
        case .text(_, let search):
            return elements is StringColumn ? .text(TextMatcher(search)) : .constant(nil)
        case .between(_, .literal(let lo), .literal(let hi)):
            if [lo, hi].contains(where: { if case .pointer = $0 { return true } else { return $0.isNull } }) {
                // Nothing orders with null or a pointer.
                return .constant(nil)
            }
            guard let a = TypedLiteral.classify(lo, column: elements, semantics: s, options: [], store: store),
                let b = TypedLiteral.classify(hi, column: elements, semantics: s, options: [], store: store)
            else { return nil }
            switch (elements, a, b) {
            case (_, .incomparable, _), (_, _, .incomparable), (_, .pointerRow, _), (_, _, .pointerRow):
                return .constant(nil)
            case (is Int64Column, _, _):
                guard let lower = Self.intRange(.ge, a), let upper = Self.intRange(.le, b) else { return nil }
                return .ints(lower.intersection(upper))
            case (is DoubleColumn, .double(let x), .double(let y)):
                return .doubles(DoubleRange(.ge, x).intersection(DoubleRange(.le, y)))
            case (is BoolColumn, .bool(let x), .bool(let y)):
                return .bools(IntRange(.ge, x ? 1 : 0).intersection(IntRange(.le, y ? 1 : 0)))
            case (is StringColumn, .string(let x), .string(let y)):
                return .strings(lower: (x, true), upper: (y, true), invert: false, folder: ByteFolder([]))
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
                return .doubleSet(
                    Set(ds.filter { !$0.isNaN }.map { ($0 == 0 ? 0.0 : $0).bitPattern }), nan: ds.contains { $0.isNaN })
            case is StringColumn:
                return .stringSet(
                    ByteStringSet(typed.compactMap { if case .string(let b) = $0 { return b } else { return nil } }),
                    folder: ByteFolder(options))
            default:
                return nil
            }
        case .string(_, let op, .literal(.string(let pattern)), let written):
            let options = written.folding(op, s)
            guard elements is StringColumn else { return .constant(nil) }
            if s == .predicate, pattern.isEmpty, op.isSubstringTest { return .constant(false) }
            let folded = Array(StringFolding.fold(pattern, options).utf8)
            switch op {
            case .beginsWith: return .affix(.prefix, folded, folder: ByteFolder(options))
            case .endsWith: return .affix(.suffix, folded, folder: ByteFolder(options))
            case .contains: return .affix(.substring, folded, folder: ByteFolder(options))
            case .like(let syntax):
                return .like(
                    ByteLikePattern(LikePattern(pattern, syntax: syntax, options: options)), folder: ByteFolder(options)
                )
            case .matches: return nil
            }
        default:
            return nil
        }
    }
}

extension FilterCompiler {
    /// A quantifier whose predicate is one simple test of the element (the variable against
    /// literals): typed over `elements`, each row's slice of it (`arrays`), or the row's own
    /// value as a collection of one (no `arrays`).
    func quantified(
        _ l: Leaf, _ q: Quantifier, _ variable: String, _ p: Filter, _ access: KeyAccess,
        elements: Column, arrays: ArrayColumn?, count: IntRange? = nil, _ answers: SlotAnswers
    ) -> FilterNode? {
        // Element values of other types would need the reference per element; a row's own
        // value of another type goes to it through the node's slots.
        guard elements.kind != .generic, arrays == nil || elements.statistics.others == 0, case .leaf(var inner) = p
        else {
            return nil
        }
        let element = Expr.variable(variable)
        if case .compare(.literal(let c), let op, element, let o) = inner.condition {
            inner.condition = .compare(element, op.swapped, .literal(c), o)
        }
        func scope(_ v: Value) -> Scope {
            Scope(record: Record(objectId: "", fields: []), className: table.name, locals: [variable: v])
        }
        var test: ArrayElementsLeaf.Test? = nil
        var whenTyped = false
        switch inner.condition {
        case .isNull(element), .compare(element, _, .literal(.null), _):
            // The same answer for every typed element: the reference's for one of them.
            guard let v = Self.representative(elements.kind), let answer = try? folding.evaluate(p, scope(v)) else {
                return nil
            }
            whenTyped = answer
        case .inCollection(.literal(.string(let needle)), element, let options):
            // `'ab' IN $x`: a substring test on string elements.
            guard elements is StringColumn else { return nil }
            test = .affix(.substring, Array(StringFolding.fold(needle, options).utf8), folder: ByteFolder(options))
        case .compare(element, _, .literal, _), .inCollection(element, .list, _), .string(element, _, .literal, _):
            guard let t = elementTest(inner, elements) else { return nil }
            test = t
        default:
            return nil
        }
        guard let whenNull = try? folding.evaluate(p, scope(.null)) else { return nil }
        return QuantifiedLeaf(
            l, access: access, elements: elements, arrays: arrays, quantifier: q, test: test,
            whenTypedElement: whenTyped, inner: inner, whenNullElement: whenNull, count: count, answers: answers)
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
