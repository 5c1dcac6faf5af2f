import QuarryCore

extension FilterCompiler {
    /// One leaf: a typed node when its subject is a key path the store holds typed and its
    /// other operands are literals the column's type compares with; the reference otherwise.
    /// A typed node may still hand rows to the reference (values of other types), so whether
    /// it may throw is the leaf's, not the node's.
    func leaf(_ l: Leaf) -> FilterNode {
        let node = typedLeaf(l)
        if !node.mayThrow && fallibility.mayThrow(l) { node.mayThrow = true }
        return node
    }

    private func typedLeaf(_ l: Leaf) -> FilterNode {
        let variables = l.operandVariables
        if !variables.isEmpty {
            return BoundLeaf(l, names: variables, compiler: self, mayThrow: fallibility.mayThrow(l))
        }
        switch l.condition {
        case .compare(.key(let path), let op, .literal(let c), let options):
            return keyed(l, path) { access, column, answers in
                if c.isNull { return independent(l, path, access, column, answers) }
                return comparison(l, op, c, options, access, column, answers)
            }
        case .between(.key(let path), .literal(let lo), .literal(let hi)):
            return keyed(l, path) { access, column, answers in
                if lo.isNull || hi.isNull { return independent(l, path, access, column, answers) }
                if case .pointer = lo, l.semantics == .document {
                    // Nothing orders with a pointer.
                    return SlotLeaf(l, access: access, whenValue: l.negated, answers: answers, selectivity: 0.01)
                }
                if case .pointer = hi, l.semantics == .document {
                    return SlotLeaf(l, access: access, whenValue: l.negated, answers: answers, selectivity: 0.01)
                }
                return between(l, lo, hi, access, column, answers)
            }
        case .inCollection(.literal(.string(let needle)), .key(let path), let options):
            // NSPredicate `'ab' IN s` (CONTAINS): a substring test when the key holds a string.
            return keyed(l, path) { access, column, answers in
                guard let strings = column as? StringColumn else { return nil }
                if l.semantics == .predicate, needle.isEmpty {
                    return SlotLeaf(l, access: access, whenValue: l.negated, answers: answers, selectivity: 0.01)
                }
                return StringAffixLeaf(
                    l, access: access, strings: strings, kind: .substring,
                    pattern: Array(StringFolding.fold(needle, options).utf8), invert: l.negated,
                    options: options, answers: answers, selectivity: 0.2,
                    parameter: affixParameter(l, access, options))
            }
        case .string(.key, .matches(let regexOptions), .literal(.string(let pattern)), let options):
            // An invalid pattern fails on every row that reaches the leaf, whatever it holds.
            do {
                _ = try memo.regex(pattern, regexOptions, options, limits)
            } catch {
                return ThrowingNode(l, error: error)
            }
            return stringLeaf(l)
        case .inCollection(.key(let path), .list(let items), let options):
            let literals = items.compactMap { if case .literal(let v) = $0 { return v } else { return nil } }
            guard literals.count == items.count else { return fallback(l) }
            return keyed(l, path) { access, column, answers in membership(l, literals, options, access, column, answers)
            }
        case .isNull(.key(let path)):
            return keyed(l, path) { access, column, answers in
                SlotLeaf(
                    l, access: access, whenValue: l.negated, answers: answers,
                    selectivity: Estimate.nulls(column, negated: l.negated))
            }
        case .string:
            return stringLeaf(l)
        case .arraySize(.key(let path), _), .containsAll(.key(let path), _), .containedBy(.key(let path), _),
            .quantified(_, .key(let path), _, _):
            // Array columns are handled in `keyed`; a typed scalar is never an array.
            return keyed(l, path) { access, column, answers in wholeArrayOnScalar(l, access, column, answers) }
        case .text(let path, let search):
            return keyed(l, path) { access, column, answers in
                guard let strings = column as? StringColumn else { return notApplicable(l, access, column, answers) }
                let matcher = TextMatcher(search)
                return StringFunctionLeaf(
                    l, access: access, strings: strings, invert: l.negated, answers: answers, cost: 60,
                    selectivity: 0.1, mayThrow: false
                ) { s in matcher.matches(s) }
            }
        case .geo(let g):
            return keyed(l, g.key) { access, column, answers in
                guard let points = column as? GeoColumn, GeoLeaf.supports(g) else {
                    return notApplicable(l, access, column, answers)
                }
                return GeoLeaf(
                    l, access: access, points: points, condition: g, invert: l.negated, answers: answers,
                    selectivity: 0.1, parameter: geoParameter(l, access, g))
            }
        case .inQuery(let path, let inner):
            if let error = failedInner[inner] { return ThrowingNode(l, error: error) }
            guard let access = access(path) else { return fallback(l) }
            let answers = SlotAnswers(missing: Self.unknown(l), null: Self.unknown(l))
            guard let column = access.column else {
                return SlotLeaf(l, access: access, whenValue: false, answers: answers, selectivity: 0)
            }
            if let pointers = column as? PointerColumn {
                return PointerSetLeaf(
                    l, access: access, pointers: pointers, rows: nil, inner: inner, invert: l.negated,
                    answers: answers, selectivity: 0.1)
            }
            if let lists = column as? PointerListColumn {
                return PointerListLeaf(l, access: access, lists: lists, test: .inner(inner), answers: answers)
            }
            return notApplicable(l, access, column, answers) ?? fallback(l)
        case .select(let path, let inner, let innerKey):
            if let error = failedInner[inner] { return ThrowingNode(l, error: error) }
            let answers = SlotAnswers(missing: Self.unknown(l), null: Self.unknown(l))
            if innerKey.components == ["objectId"], path.components.count >= 2, path.components.last == "objectId",
                let pointerAccess = KeyAccess(FieldPath(Array(path.components.dropLast())), in: table, store: store),
                let pointers = pointerAccess.column as? PointerColumn, pointers.targetClass == inner.className
            {
                // `ptr.objectId IN (Inner[…].objectId)`: objectIds are unique within a class, so
                // this is the pointer's row among the inner query's rows (a null pointer reaches
                // no objectId, as a missing one).
                return PointerSetLeaf(
                    l, access: pointerAccess, pointers: pointers, rows: nil, inner: inner, invert: l.negated,
                    answers: answers, selectivity: 0.1)
            }
            guard let access = access(path) else { return fallback(l) }
            guard let column = access.column else {
                return SlotLeaf(l, access: access, whenValue: false, answers: answers, selectivity: 0)
            }
            guard column.kind != .generic, column.kind != .geoPoint else { return fallback(l) }
            return SelectLeaf(l, access: access, column: column, inner: inner, innerKey: innerKey, answers: answers)
        case .relatedTo(let parent, let key):
            return relatedTo(l, parent, key)
        case .compare(.aggregate(.count, .subquery(.key(let path), let variable, let p)), let op, .literal(let c), _)
        where l.semantics == .predicate:
            return subqueryCount(l, path, variable, p, op, c) ?? fallback(l)
        default:
            return fallback(l)
        }
    }

    /// NSPredicate `SUBQUERY(key, $x, test).@count op n` with a simple element test: the
    /// passing elements counted per row. A key that reaches nothing is an empty collection.
    private func subqueryCount(
        _ l: Leaf, _ path: FieldPath, _ variable: String, _ p: Filter, _ op: ComparisonOperator,
        _ c: Value
    ) -> FilterNode? {
        var range: IntRange
        switch c {
        case .int(let i): range = IntRange(op, i)
        case .double(let d) where d == d.rounded(.towardZero) && abs(d) < 9.2e18: range = IntRange(op, Int64(d))
        case .double(let d): range = IntRange(op, fraction: d)
        default: return nil
        }
        range.invert = range.invert != l.negated
        guard let access = access(path), let column = access.column, column.kind != .generic else { return nil }
        let empty = range.contains(0)
        let answers = SlotAnswers(missing: empty, null: empty)
        if let arrays = column as? ArrayColumn {
            return quantified(
                l, .any, variable, p, access, elements: arrays.elements, arrays: arrays, count: range, answers)
        }
        guard !(column is PointerListColumn) else { return nil }
        return quantified(l, .any, variable, p, access, elements: column, arrays: nil, count: range, answers)
    }

    private func stringLeaf(_ l: Leaf) -> FilterNode {
        guard case .string(.key(let path), let op, .literal(.string(let pattern)), let options) = l.condition else {
            return fallback(l)
        }
        return keyed(l, path) { access, column, answers in string(l, op, pattern, options, access, column, answers) }
    }

    /// A leaf whose answer is the same for every typed value of a scalar column (a comparison
    /// with null): the reference's answer for one value stands for all.
    private func independent(
        _ l: Leaf, _ path: FieldPath, _ access: KeyAccess, _ column: Column,
        _ answers: SlotAnswers
    ) -> FilterNode? {
        guard let v = Self.representative(column.kind), let whenValue = answer(l, path, holding: v) else { return nil }
        return SlotLeaf(l, access: access, whenValue: whenValue, answers: answers, selectivity: whenValue ? 0.9 : 0.01)
    }

    /// A leaf the reference fails on for every typed value (SQL reading a literal that is no
    /// date against a date column): the reference's error, on the first such row.
    private func failing(_ l: Leaf, _ access: KeyAccess, _ column: Column, _ answers: SlotAnswers) -> FilterNode? {
        guard let v = Self.representative(column.kind), case .failure(let error) = outcome(l, access.path, holding: v)
        else { return nil }
        return FailingLeaf(l, access: access, error: error, answers: answers)
    }

    /// Resolves the subject and its answers on missing and null, then builds the typed node;
    /// the reference when the path or the answers cannot be had.
    private func keyed(
        _ l: Leaf, _ path: FieldPath,
        _ build: (KeyAccess, Column, SlotAnswers) -> FilterNode?
    ) -> FilterNode {
        // Resolved once: each resolution copies the access out of the memo.
        let resolved = access(path)
        if resolved == nil, let access = KeyAccess.throughList(path, in: table, store: store),
            var answers = answers(l, path), let list = access.list, let column = access.column
        {
            answers.null = answers.missing
            return listLeaf(l, access, list, column, answers) ?? fallback(l)
        }
        guard let access = resolved, var answers = answers(l, path) else { return fallback(l) }
        // Null at a geo point reaches nothing at its latitude or longitude.
        if access.nullIsMissing { answers.null = answers.missing }
        guard let column = access.column else {
            // No object has the field: every row reaches nothing.
            return SlotLeaf(l, access: access, whenValue: false, answers: answers, selectivity: answers.missing ? 1 : 0)
        }
        if let arrays = column as? ArrayColumn {
            return arrayLeaf(l, access, arrays, answers) ?? fallback(l)
        }
        if let lists = column as? PointerListColumn {
            switch l.condition {
            case .arraySize(_, let n):
                return PointerListLeaf(
                    l, access: access, lists: lists, test: .size(Int32(clamping: n)), answers: answers)
            case .isNull where l.semantics == .sql:
                return PointerListLeaf(l, access: access, lists: lists, test: .empty, answers: answers)
            case .isNull:
                // A list is a value, never nil.
                return SlotLeaf(l, access: access, whenValue: l.negated, answers: answers, selectivity: 0.5)
            default:
                return pointerListLeaf(l, access, lists, answers) ?? fallback(l)
            }
        }
        if column.kind == .generic {
            return GenericColumnLeaf(
                l, access: access, column: column, answers: answers, mayThrow: fallibility.mayThrow(l))
        }
        return build(access, column, answers) ?? fallback(l)
    }

    /// Whole-array tests and quantifiers on a typed column that holds no arrays: a value is
    /// not an array (containsAll, containedBy and arraySize are unknown), and a quantifier sees
    /// it as a collection of one.
    private func wholeArrayOnScalar(_ l: Leaf, _ access: KeyAccess, _ column: Column, _ answers: SlotAnswers)
        -> FilterNode?
    {
        if case .quantified(let q, _, let variable, let p) = l.condition {
            return quantified(l, q, variable, p, access, elements: column, arrays: nil, answers)
        }
        if l.semantics == .document, case .containsAll(_, let list) = l.condition {
            return allOnScalar(l, list, access, column, answers)
        }
        return notApplicable(l, access, column, answers)
    }

    /// Parse's `$all` on a single value: an AND of equalities, so the value must equal every
    /// listed literal (docs/SEMANTICS.md): an equality when they are all one value, else false.
    private func allOnScalar(
        _ l: Leaf, _ list: Expr, _ access: KeyAccess, _ column: Column,
        _ answers: SlotAnswers
    ) -> FilterNode? {
        guard let members = list.literalValues, let first = members.first, !first.isNull,
            members.allSatisfy({ $0 == first })
        else {
            return list.literalValues.map { _ in
                SlotLeaf(l, access: access, whenValue: l.negated, answers: answers, selectivity: 0.01)
            }
        }
        let equality = Leaf(
            .compare(.key(access.path), .eq, .literal(first), []), negated: l.negated, semantics: .document)
        return comparison(equality, .eq, first, [], access, column, answers)
    }

    /// A typed column whose values the test does not apply to (a string test on numbers): the
    /// test is unknown for every typed value.
    private func notApplicable(_ l: Leaf, _ access: KeyAccess, _ column: Column, _ answers: SlotAnswers) -> FilterNode?
    {
        guard column.kind != .generic else { return nil }
        return SlotLeaf(l, access: access, whenValue: Self.unknown(l), answers: answers, selectivity: 0.1)
    }

    // MARK: - Comparisons

    private func comparison(
        _ l: Leaf, _ op: ComparisonOperator, _ c: Value, _ options: StringOptions,
        _ access: KeyAccess, _ column: Column, _ answers: SlotAnswers
    ) -> FilterNode? {
        let neg = l.negated
        let sel = Estimate.comparison(column, op, c)
        if let v = column as? DoubleColumn, case .int(let i) = c, !DoubleColumn.holdsExactly(i) {
            var range = DoubleRange(op, integer: i)
            range.invert = range.invert != neg
            return DoubleRangeLeaf(
                l, access: access, values: v, range: range, answers: answers, selectivity: sel,
                parameter: doubleParameter(l, access, op, column, options))
        }
        if l.semantics == .sql, column.kind == .date, case .string(let s) = c, BackendlessDate.parse(s) == nil {
            return failing(l, access, column, answers)
        }
        if let strings = column as? StringColumn {
            switch (l.semantics, c) {
            case (.sql, .date(let ms)):
                // SQL reads each stored string as a date; one that is none leaves the test unknown.
                return StringFunctionLeaf(
                    l, access: access, strings: strings, invert: false, answers: answers, cost: 80,
                    selectivity: sel, mayThrow: false
                ) { s in
                    guard let x = BackendlessDate.parse(s) else { return false }
                    return op.accepts(x < ms ? -1 : (x == ms ? 0 : 1)) != neg
                }
            case (.document, .pointer(let p)):
                // Parse: a stored objectId equals the pointer, exactly; no order between them.
                guard op == .eq || op == .ne else {
                    return SlotLeaf(l, access: access, whenValue: neg, answers: answers, selectivity: 0.01)
                }
                let id = Array(p.objectId.utf8)
                return StringRangeLeaf(
                    l, access: access, strings: strings, lower: (id, true), upper: (id, true),
                    invert: (op == .ne) != neg, options: [], answers: answers, selectivity: sel)
            default:
                break
            }
        }
        guard
            let literal = TypedLiteral.classify(
                c, column: column, semantics: l.semantics, options: options, store: store)
        else { return nil }
        switch (column, literal) {
        case (let v as Int64Column, .int(let i)):
            var range = IntRange(op, i)
            range.invert = range.invert != neg
            return Int64RangeLeaf(
                l, access: access, values: v, range: range, answers: answers, selectivity: sel,
                parameter: intParameter(l, access, op, column, options))
        case (let v as Int64Column, .fraction(let d)):
            var range = IntRange(op, fraction: d)
            range.invert = range.invert != neg
            return Int64RangeLeaf(
                l, access: access, values: v, range: range, answers: answers, selectivity: sel,
                parameter: intParameter(l, access, op, column, options))
        case (let v as DoubleColumn, .double(let d)):
            var range = DoubleRange(op, d)
            range.invert = range.invert != neg
            return DoubleRangeLeaf(
                l, access: access, values: v, range: range, answers: answers, selectivity: sel,
                parameter: doubleParameter(l, access, op, column, options))
        case (let v as BoolColumn, .bool(let b)):
            var range = IntRange(op, b ? 1 : 0)
            range.invert = range.invert != neg
            return BoolRangeLeaf(l, access: access, values: v, range: range, answers: answers, selectivity: sel)
        case (let v as StringColumn, .string(let bytes)):
            let (lower, upper, invert) = Self.stringBounds(op, bytes)
            return StringRangeLeaf(
                l, access: access, strings: v, lower: lower, upper: upper, invert: invert != neg,
                options: options, answers: answers, selectivity: sel,
                parameter: stringParameter(l, access, v, count: 1, options) { Self.stringBounds(op, $0[0]) })
        case (let v as PointerColumn, .pointerRow(let row)) where op == .eq || op == .ne:
            return PointerEqualsLeaf(
                l, access: access, pointers: v, target: row, invert: (op == .ne) != neg, answers: answers)
        case (let v as GeoColumn, .point(let p)) where op == .eq || op == .ne:
            return GeoEqualsLeaf(
                l, access: access, points: v, members: [p], invert: (op == .ne) != neg, answers: answers,
                selectivity: sel)
        case (_, .incomparable), (_, .pointerRow), (_, .point):
            // Never equal, never ordered.
            let raw: Bool? = op == .eq ? false : (op == .ne ? true : nil)
            let whenValue = raw.map { $0 != neg } ?? Self.unknown(l)
            return SlotLeaf(
                l, access: access, whenValue: whenValue, answers: answers, selectivity: whenValue ? 0.9 : 0.01)
        default:
            return nil
        }
    }

    /// A string comparison's bounds made from the execution's `count` literals: each must be a
    /// string the column compares with (not a SQL date, not a pointer), which `bounds` turns into
    /// the bounds as it did the first literals.
    private func stringParameter(
        _ l: Leaf, _ access: KeyAccess, _ column: StringColumn, count: Int, _ options: StringOptions,
        _ bounds: @escaping ([[UInt8]]) -> (([UInt8], Bool)?, ([UInt8], Bool)?, Bool)
    ) -> Parameter<StringRangeLeaf.Bounds>? {
        let bytes = { [self] (c: Value) -> [UInt8]? in
            guard case .string = c,
                case .string(let b)? = TypedLiteral.classify(
                    c, column: column, semantics: l.semantics, options: options, store: store)
            else { return nil }
            return b
        }
        guard let slots = parameterSlots(l, key: access.path, count: count, check: { bytes($0) != nil }) else {
            return nil
        }
        return Parameter(slots: slots) { literals in
            let all = literals.compactMap(bytes)
            guard all.count == count else { return nil }
            // Whether the test is inverted (`!=`) depends on the operator alone, which the shape keeps.
            let (lower, upper, _) = bounds(all)
            return StringRangeLeaf.Bounds(lower, upper)
        }
    }

    private static func stringBounds(_ op: ComparisonOperator, _ s: [UInt8]) -> (
        ([UInt8], Bool)?, ([UInt8], Bool)?, Bool
    ) {
        switch op {
        case .eq: return ((s, true), (s, true), false)
        case .ne: return ((s, true), (s, true), true)
        case .lt: return (nil, (s, false), false)
        case .le: return (nil, (s, true), false)
        case .gt: return ((s, false), nil, false)
        case .ge: return ((s, true), nil, false)
        }
    }

    private func between(
        _ l: Leaf, _ lo: Value, _ hi: Value, _ access: KeyAccess, _ column: Column,
        _ answers: SlotAnswers
    ) -> FilterNode? {
        let s = l.semantics
        if s == .sql, column.kind == .date,
            [lo, hi].contains(where: {
                if case .string(let x) = $0 { return BackendlessDate.parse(x) == nil } else { return false }
            })
        {
            return failing(l, access, column, answers)
        }
        guard let a = TypedLiteral.classify(lo, column: column, semantics: s, options: [], store: store),
            let b = TypedLiteral.classify(hi, column: column, semantics: s, options: [], store: store)
        else { return nil }
        let neg = l.negated
        let sel = Estimate.between(column, lo, hi)
        switch (column, a, b) {
        case (_, .incomparable, _), (_, _, .incomparable), (_, .pointerRow, _), (_, _, .pointerRow), (_, .point, _),
            (_, _, .point):
            return SlotLeaf(l, access: access, whenValue: Self.unknown(l), answers: answers, selectivity: 0.01)
        case (let v as Int64Column, _, _):
            guard let lower = Self.intRange(.ge, a), let upper = Self.intRange(.le, b) else { return nil }
            var range = lower.intersection(upper)
            range.invert = neg
            return Int64RangeLeaf(
                l, access: access, values: v, range: range, answers: answers, selectivity: sel,
                parameter: intBetweenParameter(l, access, column))
        case (let v as BoolColumn, .bool(let x), .bool(let y)):
            var range = IntRange(.ge, x ? 1 : 0).intersection(IntRange(.le, y ? 1 : 0))
            range.invert = neg
            return BoolRangeLeaf(l, access: access, values: v, range: range, answers: answers, selectivity: sel)
        case (let v as DoubleColumn, .double(let x), .double(let y)):
            var range = DoubleRange(.ge, x).intersection(DoubleRange(.le, y))
            range.invert = neg
            return DoubleRangeLeaf(
                l, access: access, values: v, range: range, answers: answers, selectivity: sel,
                parameter: doubleBetweenParameter(l, access, column))
        case (let v as StringColumn, .string(let x), .string(let y)):
            return StringRangeLeaf(
                l, access: access, strings: v, lower: (x, true), upper: (y, true), invert: neg,
                options: [], answers: answers, selectivity: sel,
                parameter: stringParameter(l, access, v, count: 2, []) { (($0[0], true), ($0[1], true), false) })
        default:
            return nil
        }
    }

    static func intRange(_ op: ComparisonOperator, _ t: TypedLiteral) -> IntRange? {
        switch t {
        case .int(let i): return IntRange(op, i)
        case .fraction(let d): return IntRange(op, fraction: d)
        default: return nil
        }
    }

    // MARK: - IN lists

    private func membership(
        _ l: Leaf, _ literals: [Value], _ options: StringOptions, _ access: KeyAccess,
        _ column: Column, _ answers: SlotAnswers
    ) -> FilterNode? {
        guard let typed = typedMembers(literals, l, options, column) else { return nil }
        let neg = l.negated
        let sel = Swift.min(1, Double(literals.count) * Estimate.equality(column))
        // Every member is a parameter (no null, geo point or other value kept in the shape): the
        // set is made from the execution's literals, each of which must make a typed member.
        let count = literals.filter { !$0.isNull }.count
        func parameter<T>(_ make: @escaping ([TypedLiteral]) -> T) -> Parameter<T>? {
            let check = { [self] (v: Value) in
                if case .fails = typedMember(v, l, options, column) { false } else { true }
            }
            guard let slots = parameterSlots(l, key: access.path, count: count, check: check) else { return nil }
            return Parameter(slots: slots) { [self] in typedMembers(Array($0), l, options, column).map(make) }
        }
        switch column {
        case let v as Int64Column:
            return Int64SetLeaf(
                l, access: access, values: v, members: Self.ints(typed), invert: neg, answers: answers,
                selectivity: sel,
                parameter: parameter { Int64SetLeaf.Members(Self.ints($0)) })
        case let v as DoubleColumn:
            return DoubleSetLeaf(
                l, access: access, values: v, members: Self.doubles(typed), invert: neg, answers: answers,
                selectivity: sel, parameter: parameter { DoubleSetLeaf.Members(Self.doubles($0)) })
        case let v as StringColumn:
            return StringSetLeaf(
                l, access: access, strings: v, members: Self.strings(typed), invert: neg, options: options,
                answers: answers, selectivity: sel,
                parameter: parameter { StringSetLeaf.Members(Self.strings($0), options: options) })
        case let v as BoolColumn:
            let bools = Set(typed.compactMap { if case .bool(let b) = $0 { return b } else { return nil } })
            var range: IntRange
            switch (bools.contains(false), bools.contains(true)) {
            case (true, true): range = IntRange(lo: 0, hi: 1, invert: false)
            case (true, false): range = IntRange(.eq, 0)
            case (false, true): range = IntRange(.eq, 1)
            case (false, false): range = .none
            }
            range.invert = neg
            return BoolRangeLeaf(l, access: access, values: v, range: range, answers: answers, selectivity: sel)
        case let v as GeoColumn:
            let points = typed.compactMap { if case .point(let p) = $0 { return p } else { return nil } }
            return GeoEqualsLeaf(
                l, access: access, points: v, members: points, invert: neg, answers: answers, selectivity: sel)
        case let v as PointerColumn:
            let rows = typed.compactMap { if case .pointerRow(let r) = $0 { return r } else { return nil } }
            let set = RowSet(rows: rows, capacity: store.table(v.targetClass)?.rowCount ?? 0)
            return PointerSetLeaf(
                l, access: access, pointers: v, rows: set, inner: nil, invert: neg, answers: answers, selectivity: sel)
        default:
            return nil
        }
    }

    /// An IN list's members as the column compares them (nulls left out: they equal nothing
    /// typed); nil when one makes no typed test here.
    private func typedMembers(
        _ literals: [Value], _ l: Leaf, _ options: StringOptions, _ column: Column
    ) -> [TypedLiteral]? {
        var typed: [TypedLiteral] = []
        for v in literals {
            switch typedMember(v, l, options, column) {
            case .typed(let t): typed.append(t)
            case .leftOut: continue
            case .fails: return nil
            }
        }
        return typed
    }

    private enum MemberTyping {
        case typed(TypedLiteral)
        /// Left out of the typed set: null (the leaf's answers for null decide it) or an
        /// integer no double of the column equals.
        case leftOut
        /// The column's test cannot take it: the list is not compiled.
        case fails
    }

    private func typedMember(_ v: Value, _ l: Leaf, _ options: StringOptions, _ column: Column) -> MemberTyping {
        switch (column, v) {
        case (_, .null): return .leftOut
        case (is DoubleColumn, .int(let i)) where Double(exactly: i) == nil:
            // No double equals it.
            return .leftOut
        case (is StringColumn, .pointer(let p)) where l.semantics == .document:
            // Parse: a stored objectId equals the pointer, exactly (options do not apply).
            return options.isEmpty ? .typed(.string(Array(p.objectId.utf8))) : .fails
        default:
            return TypedLiteral.classify(v, column: column, semantics: l.semantics, options: options, store: store)
                .map(MemberTyping.typed) ?? .fails
        }
    }

    private static func ints(_ typed: [TypedLiteral]) -> [Int64] {
        typed.compactMap { if case .int(let i) = $0 { return i } else { return nil } }
    }

    private static func doubles(_ typed: [TypedLiteral]) -> [Double] {
        typed.compactMap { if case .double(let d) = $0 { return d } else { return nil } }
    }

    private static func strings(_ typed: [TypedLiteral]) -> [[UInt8]] {
        typed.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
    }

    // MARK: - String tests

    private func string(
        _ l: Leaf, _ op: StringOperator, _ pattern: String, _ written: StringOptions,
        _ access: KeyAccess, _ column: Column, _ answers: SlotAnswers
    ) -> FilterNode? {
        let options = written.folding(op, l.semantics)
        guard let strings = column as? StringColumn else { return notApplicable(l, access, column, answers) }
        let neg = l.negated
        if l.semantics == .predicate, pattern.isEmpty, op.isSubstringTest {
            // Foundation: an empty prefix, suffix or substring is in no string.
            return SlotLeaf(l, access: access, whenValue: neg, answers: answers, selectivity: neg ? 0.9 : 0.01)
        }
        let folded = Array(StringFolding.fold(pattern, options).utf8)
        switch op {
        case .beginsWith:
            return StringAffixLeaf(
                l, access: access, strings: strings, kind: .prefix, pattern: folded, invert: neg,
                options: options, answers: answers, selectivity: Estimate.prefix(folded),
                parameter: affixParameter(l, access, options))
        case .endsWith:
            return StringAffixLeaf(
                l, access: access, strings: strings, kind: .suffix, pattern: folded, invert: neg,
                options: options, answers: answers, selectivity: Estimate.prefix(folded),
                parameter: affixParameter(l, access, options))
        case .contains:
            return StringAffixLeaf(
                l, access: access, strings: strings, kind: .substring, pattern: folded, invert: neg,
                options: options, answers: answers, selectivity: 0.2, parameter: affixParameter(l, access, options))
        case .like(let syntax):
            return StringLikeLeaf(
                l, access: access, strings: strings, pattern: LikePattern(pattern, syntax: syntax, options: options),
                invert: neg, answers: answers)
        case .matches(let regexOptions):
            let regex: CompiledRegex, data: RegexMatchData
            do {
                regex = try memo.regex(pattern, regexOptions, options, limits)
                data = try regex.makeMatchData()
            } catch {
                return ThrowingNode(l, error: error)
            }
            return StringRegexLeaf(
                l, access: access, strings: strings, regex: regex, data: data,
                stripsDiacritics: options.contains(.diacriticInsensitive), invert: neg, answers: answers,
                parameter: regexParameter(l, access, regexOptions, options))
        }
    }

    /// A regular expression's compiled pattern for the execution's literal. A new pattern is
    /// compiled by its slot's check, when the cached plan is lent for it (under the plan
    /// cache's lock, which reports an invalid one located at its leaf), and the execution
    /// takes it from the planning memo, whose compiled patterns are locked apart.
    func regexParameter(
        _ l: Leaf, _ access: KeyAccess, _ regexOptions: RegexOptions, _ options: StringOptions
    ) -> Parameter<Result<CompiledRegex, Diagnostic>>? {
        let memo = self.memo, limits = self.limits
        let compiled = { (c: Value) -> Result<CompiledRegex, Diagnostic>? in
            guard case .string(let pattern) = c else { return nil }
            return Result { () throws(Diagnostic) in try memo.regex(pattern, regexOptions, options, limits) }
        }
        let check = { (c: Value) -> Bool in (try? compiled(c)?.get()) != nil }
        guard let slots = parameterSlots(l, key: access.path, count: 1, check: check) else { return nil }
        return Parameter(slots: slots) { compiled($0[$0.startIndex]) }
    }

    /// A prefix, suffix or substring test's folded text made from the execution's literal: a
    /// string, not empty under NSPredicate's semantics (where an empty one is in no string, a
    /// test of another kind).
    private func affixParameter(_ l: Leaf, _ access: KeyAccess, _ options: StringOptions) -> Parameter<[UInt8]>? {
        // The check only looks at the literal; the text is folded once, when an execution reads it.
        let accepts = { (c: Value) -> Bool in
            guard case .string(let s) = c else { return false }
            return !(s.isEmpty && l.semantics == .predicate)
        }
        guard let slots = parameterSlots(l, key: access.path, count: 1, check: accepts) else { return nil }
        return Parameter(slots: slots) { literals in
            let c = literals[literals.startIndex]
            guard accepts(c), case .string(let s) = c else { return nil }
            return Array(StringFolding.fold(s, options).utf8)
        }
    }

    // MARK: - Relations

    private func relatedTo(_ l: Leaf, _ parent: Pointer, _ key: String) -> FilterNode {
        guard let field = store.field(key, of: parent), !field.isNull else {
            return ConstantNode(Self.unknown(l))
        }
        let resolver = KeyPathResolver(source: store)
        let members = resolver.elements(field) ?? [field]
        let rows = members.compactMap { m -> Int? in
            guard let p = m.objectIdentity, p.className == table.name else { return nil }
            return table.row(of: p.objectId)
        }
        let selectivity = Double(rows.count) / Double(Swift.max(1, table.rowCount))
        return RowSetLeaf(
            l, rows: RowSet(rows: rows, capacity: table.rowCount), invert: l.negated,
            selectivity: l.negated ? 1 - selectivity : selectivity)
    }
}
