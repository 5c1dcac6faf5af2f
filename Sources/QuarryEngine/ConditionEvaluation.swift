import QuarryCore

extension Evaluation {
    /// Whether the object in `scope` satisfies the predicate. `and`/`or` stop at the first
    /// operand that decides them, left to right, so an error in a later operand (a regex
    /// budget, say) only surfaces when that operand is reached.
    func evaluate(_ predicate: Filter, _ scope: Scope) throws(Diagnostic) -> Bool {
        switch predicate {
        case .constant(let b): return b
        case .and(let ps):
            for p in ps where !(try evaluate(p, scope)) { return false }
            return true
        case .or(let ps):
            for p in ps where try evaluate(p, scope) { return true }
            return false
        case .not(let p): return !(try evaluate(p, scope))
        case .leaf(let leaf):
            do throws(Diagnostic) {
                return try evaluate(leaf, scope)
            } catch {
                throw error.located(at: leaf.range)
            }
        }
    }

    private func evaluate(_ leaf: Leaf, _ scope: Scope) throws(Diagnostic) -> Bool {
        let rule = LeafRule(semantics: leaf.semantics, negated: leaf.negated)
        switch leaf.condition {
        case .compare(let l, let op, let r, let options):
            return try compare(l, op, r, options, rule, scope)
        case .between(let e, let lower, let upper):
            return try between(e, lower, upper, rule, scope)
        case .inCollection(let e, let collection, let options):
            return try inCollection(e, collection, options, rule, scope)
        case .isNull(let e):
            let operand = try evaluate(e, scope)
            let isNull: Bool
            switch rule.semantics {
            case .sql: isNull = sqlValues(operand).isEmpty
            case .predicate: isNull = operand.isNil
            case .document: isNull = operand.isNil || reachesNothingThroughArrays(e, operand, scope)
            }
            return isNull != rule.negated
        case .string(let e, let op, let patternExpr, let options):
            let operand = try evaluate(e, scope)
            guard case .string(let pattern)? = try evaluate(patternExpr, scope).value else {
                return rule.decideWithoutOperand()
            }
            if rule.semantics == .predicate, pattern.isEmpty, op.isSubstringTest { return rule.decideWithoutOperand() }
            let matcher = try matcher(op, pattern, options.folding(op, rule.semantics))
            return try decide(operand, rule) { v throws(Diagnostic) in
                guard case .string(let s) = v else { return nil }
                return try matcher.matches(s, budget: budget)
            }
        case .containsAll(let e, let list):
            if rule.semantics == .document, case .value(let v) = try evaluate(e, scope), !v.isNull,
                resolver.elements(v) == nil
            {
                // MongoDB: `$all` is an AND of equalities, which a single value can pass.
                let wanted = resolver.collection(try evaluate(list, scope))
                return (!wanted.isEmpty && wanted.allSatisfy { equal(v, $0, rule) }) != rule.negated
            }
            return try arrayTest(e, list, rule, scope) { items, list in
                !list.isEmpty && list.allSatisfy { want in items.contains { equal($0, want, rule) } }
            }
        case .containedBy(let e, let list):
            return try arrayTest(e, list, rule, scope) { items, list in
                items.allSatisfy { have in list.contains { equal(have, $0, rule) } }
            }
        case .arraySize(let e, let size):
            return try arrayTest(e, nil, rule, scope) { items, _ in items.count == size }
        case .quantified(let quantifier, let collection, let name, let predicate):
            return try quantified(quantifier, collection, name, predicate, rule, scope)
        case .geo(let condition):
            return try geo(condition, rule, scope)
        case .inQuery(let key, let query):
            let inner = try innerPointers(of: query)
            return try decideExistentially(resolver.resolve(key, in: scope.record), rule) { v in
                v.objectIdentity.map { inner.contains(.pointer($0)) }
            }
        case .select(let key, let query, let innerKey):
            let inner = try innerValues(of: query, at: innerKey)
            return try decideExistentially(resolver.resolve(key, in: scope.record), rule) { v in
                inner.contains(v, semantics: rule.semantics)
            }
        case .relatedTo(let parent, let key):
            guard let related = relation(parent, key) else { return rule.decideWithoutOperand() }
            let me = Value.pointer(scope.record.pointer(in: scope.className))
            let listed = related.contains { $0.objectIdentity.map(Value.pointer) == me }
            return listed != rule.negated
        case .text(let key, let search):
            let matcher = textMatcher(search)
            return try decide(resolver.resolve(key, in: scope.record), rule) { v in
                guard case .string(let s) = v else { return nil }
                return matcher.matches(s)
            }
        }
    }

    // MARK: - The three leaf rules

    /// The non-null values an operand reaches under `.sql`: array and relation elements
    /// count one by one (existential), nulls do not count.
    func sqlValues(_ operand: Operand) -> [Value] {
        guard case .value(let v) = operand, !v.isNull else { return [] }
        return (resolver.elements(v) ?? [v]).filter { !$0.isNull }
    }

    /// What a `.document` leaf tests: the value itself and, for an array, each element.
    func documentCandidates(_ operand: Operand) -> [Value] {
        guard case .value(let v) = operand else { return [] }
        return [v] + (resolver.elements(v) ?? [])
    }

    /// What `.document` equality compares: a field's value and its elements, a missing field
    /// as null (so `x == null` matches it), and a value written in the query as itself (an
    /// array literal is not searched element by element).
    private func documentEqualityCandidates(_ operand: Operand, _ expr: Expr) -> [Value] {
        guard case .value(let v) = operand else { return [.null] }
        return expr.isConstant ? [v] : documentCandidates(operand)
    }

    /// MongoDB's null through arrays: a key path that meets, inside an array, an object
    /// lacking the rest of the path also has null among its values (`{"p.b": null}` matches
    /// `{"p": [{}]}`). Asked only when null is what the values are compared with.
    private func nullInsideArray(_ expr: Expr, _ scope: Scope) -> Bool {
        guard case .key(let path) = expr else { return false }
        return resolver.missesInsideArray(path, in: scope.record)
    }

    /// `.document` `$exists`: a dotted path that maps over arrays and reaches no value at all
    /// does not exist (`{"p": []}` has nothing at `p.b`), although the mapped result is an
    /// empty array.
    private func reachesNothingThroughArrays(_ expr: Expr, _ operand: Operand, _ scope: Scope) -> Bool {
        guard case .key(let path) = expr, path.components.count > 1, case .value(.array(let items)) = operand,
            items.isEmpty
        else { return false }
        return !resolver.reachesAnything(path, in: scope.record)
    }

    /// A one-operand test under the leaf's rule. `test` answers for one value, nil when it
    /// does not apply to that value (a number for a string test): unknown, never a match.
    private func decide(
        _ operand: Operand, _ rule: LeafRule,
        _ test: (Value) throws(Diagnostic) -> Bool?
    ) throws(Diagnostic) -> Bool {
        switch rule.semantics {
        case .sql:
            for v in sqlValues(operand) {
                if let passed = try test(v), passed != rule.negated { return true }
            }
            return false
        case .predicate:
            guard case .value(let v) = operand, !v.isNull else { return rule.negated }
            return (try test(v) ?? false) != rule.negated
        case .document:
            for v in documentCandidates(operand) where try test(v) == true { return !rule.negated }
            return rule.negated
        }
    }

    /// Like `decide`, but an array or relation is searched element by element under every
    /// semantics (subquery membership: "the pointer, or any pointer of the array").
    private func decideExistentially(
        _ operand: Operand, _ rule: LeafRule,
        _ test: (Value) -> Bool?
    ) throws(Diagnostic) -> Bool {
        if rule.semantics == .sql { return try decide(operand, rule, test) }
        let found = documentCandidates(operand).contains { test($0) == true }
        return found != rule.negated
    }

    private func equal(_ a: Value, _ b: Value, _ rule: LeafRule, _ options: StringOptions = []) -> Bool {
        comparison.equal(a, b, options, rule.semantics)
    }

    // MARK: - Comparisons

    private func compare(
        _ l: Expr, _ op: ComparisonOperator, _ r: Expr, _ options: StringOptions,
        _ rule: LeafRule, _ scope: Scope
    ) throws(Diagnostic) -> Bool {
        let a = try evaluate(l, scope), b = try evaluate(r, scope)
        switch rule.semantics {
        case .sql:
            let xs = sqlValues(a), ys = sqlValues(b)
            for x in xs {
                for y in ys {
                    if let passed = try sqlCompare(x, op, y, options, l.isConstant, r.isConstant),
                        passed != rule.negated
                    {
                        return true
                    }
                }
            }
            return false
        case .predicate:
            // nil (missing or null) is a value for == and !=, and fails every ordered test.
            let passed: Bool
            switch (a.nonNull, b.nonNull) {
            case (nil, nil): passed = op == .eq
            case (let x?, let y?): passed = comparison.compare(x, op, y, options, .predicate) ?? false
            default: passed = op == .ne
            }
            return passed != rule.negated
        case .document:
            let passed: Bool
            if op == .eq || op == .ne {
                // Missing counts as null, so `x == null` matches a missing x (and `$ne` does not).
                var xs = documentEqualityCandidates(a, l), ys = documentEqualityCandidates(b, r)
                if ys.contains(.null), nullInsideArray(l, scope) { xs.append(.null) }
                if xs.contains(.null), nullInsideArray(r, scope) { ys.append(.null) }
                let same = xs.contains { x in ys.contains { y in equal(x, y, rule, options) } }
                passed = (op == .eq) == same
            } else {
                let ys = r.isConstant ? b.value.map { [$0] } ?? [] : documentCandidates(b)
                let xs = l.isConstant ? a.value.map { [$0] } ?? [] : documentCandidates(a)
                passed = xs.contains { x in
                    ys.contains { y in comparison.compare(x, op, y, options, .document) == true }
                }
            }
            return passed != rule.negated
        }
    }

    /// One SQL comparison, with a date column's string or number operand read as a date
    /// (Backendless date string, or epoch milliseconds). Nil when the values cannot be
    /// compared.
    private func sqlCompare(
        _ x: Value, _ op: ComparisonOperator, _ y: Value, _ options: StringOptions,
        _ xConstant: Bool, _ yConstant: Bool
    ) throws(Diagnostic) -> Bool? {
        var x = x, y = y
        if case .date = x {
            guard let coerced = try DateCoercion.sqlOperand(y, constant: yConstant) else { return nil }
            y = coerced
        } else if case .date = y {
            guard let coerced = try DateCoercion.sqlOperand(x, constant: xConstant) else { return nil }
            x = coerced
        }
        if case .date(let ms) = x, y.numericValue != nil { x = .int(ms) }
        if case .date(let ms) = y, x.numericValue != nil { y = .int(ms) }
        return comparison.compare(x, op, y, options, .sql)
    }

    private func between(
        _ e: Expr, _ lowerExpr: Expr, _ upperExpr: Expr, _ rule: LeafRule,
        _ scope: Scope
    ) throws(Diagnostic) -> Bool {
        let operand = try evaluate(e, scope)
        let lowerOperand = try evaluate(lowerExpr, scope), upperOperand = try evaluate(upperExpr, scope)
        if rule.semantics == .sql {
            let lowers = sqlValues(lowerOperand), uppers = sqlValues(upperOperand)
            return try decide(operand, rule) { v throws(Diagnostic) in
                for lower in lowers {
                    for upper in uppers {
                        guard let above = try sqlCompare(v, .ge, lower, [], e.isConstant, lowerExpr.isConstant),
                            let below = try sqlCompare(v, .le, upper, [], e.isConstant, upperExpr.isConstant)
                        else { continue }
                        return above && below
                    }
                }
                return nil
            }
        }
        guard case .value(let lower) = lowerOperand, case .value(let upper) = upperOperand else {
            return rule.decideWithoutOperand()
        }
        return try decide(operand, rule) { v in
            guard let above = comparison.order(v, lower, []), let below = comparison.order(v, upper, []) else {
                return nil
            }
            return above >= 0 && below <= 0
        }
    }

    private func inCollection(
        _ e: Expr, _ collectionExpr: Expr, _ options: StringOptions, _ rule: LeafRule,
        _ scope: Scope
    ) throws(Diagnostic) -> Bool {
        let operand = try evaluate(e, scope)
        let collection = try evaluate(collectionExpr, scope)
        if case .value(.string(let haystack)) = collection {
            // NSPredicate `'ab' IN 'abc'`: a substring test. The needle comes from the data, so
            // it is not worth caching.
            return try decide(operand, rule) { v throws(Diagnostic) in
                guard case .string(let needle) = v else { return nil }
                if rule.semantics == .predicate, needle.isEmpty { return false }
                return try StringMatcher(.contains, pattern: needle, options: options, limits: limits)
                    .matches(haystack, budget: budget)
            }
        }
        let elements = resolver.collection(collection)
        switch rule.semantics {
        case .sql:
            // A null collection is unknown; an empty one is a real empty set (NOT IN holds).
            if collection.isNil { return false }
            let members = elements.filter { !$0.isNull }
            return try decide(operand, rule) { v throws(Diagnostic) in
                for member in members
                where try sqlCompare(v, .eq, member, options, e.isConstant, collectionExpr.isConstant) == true {
                    return true
                }
                return false
            }
        case .predicate:
            let found: Bool
            if let v = operand.nonNull {
                found = elements.contains { equal(v, $0, rule, options) }
            } else {
                found = elements.contains { $0.isNull }
            }
            return found != rule.negated
        case .document:
            var candidates = documentEqualityCandidates(operand, e)
            if elements.contains(.null), nullInsideArray(e, scope) { candidates.append(.null) }
            let found = candidates.contains { c in elements.contains { equal(c, $0, rule, options) } }
            return found != rule.negated
        }
    }

    /// A test on an array value as a whole (`containsAll`, `containedBy`, `arraySize`). The
    /// operand must be an array or a relation; anything else fails the test.
    private func arrayTest(
        _ e: Expr, _ listExpr: Expr?, _ rule: LeafRule, _ scope: Scope,
        _ test: ([Value], [Value]) -> Bool
    ) throws(Diagnostic) -> Bool {
        guard case .value(let v) = try evaluate(e, scope), let items = resolver.elements(v) else {
            return rule.decideWithoutOperand()
        }
        var list: [Value] = []
        if let listExpr { list = resolver.collection(try evaluate(listExpr, scope)) }
        return test(items, list) != rule.negated
    }

    private func quantified(
        _ quantifier: Quantifier, _ collectionExpr: Expr, _ name: String,
        _ predicate: Filter, _ rule: LeafRule, _ scope: Scope
    ) throws(Diagnostic) -> Bool {
        let elements = resolver.collection(try evaluate(collectionExpr, scope))
        if rule.semantics == .sql, elements.allSatisfy(\.isNull) { return false }
        var inner = scope
        var any = false, all = true
        for element in elements {
            inner.locals[name] = element
            if try evaluate(predicate, inner) {
                any = true
                if quantifier != .all { break }
            } else {
                all = false
                if quantifier == .all { break }
            }
        }
        let passed: Bool
        switch quantifier {
        case .any: passed = any
        case .all: passed = all
        case .none: passed = !any
        }
        return passed != rule.negated
    }

    // MARK: - Geo

    private func geo(_ condition: GeoCondition, _ rule: LeafRule, _ scope: Scope) throws(Diagnostic) -> Bool {
        try decide(resolver.resolve(condition.key, in: scope.record), rule) { v in
            switch (condition, v) {
            case (.near(_, let center, let maxDistance), .geoPoint(let p)):
                return maxDistance.map { Geo.meters(center, p) <= $0.meters } ?? true
            case (.withinBox(_, let sw, let ne), .geoPoint(let p)):
                return Geo.box(p, southwest: sw, northeast: ne)
            case (.withinPolygon(_, let vertices), .geoPoint(let p)):
                return Geo.polygon(vertices, contains: p)
            case (.withinCircle(_, let center, let radius), .geoPoint(let p)):
                return Geo.meters(center, p) <= radius.meters
            case (.polygonContains(_, let point), .polygon(let vertices)):
                return Geo.polygon(vertices, contains: point)
            case (.distance(_, let from, let op, let d), .geoPoint(let p)):
                let meters = Geo.meters(from, p)
                return op.accepts(meters < d.meters ? -1 : (meters == d.meters ? 0 : 1))
            default:
                return nil
            }
        }
    }

    // MARK: - Relations

    /// The members of `parent.key` (a relation, an array of pointers or one pointer); nil if
    /// the parent object or the field does not exist.
    private func relation(_ parent: Pointer, _ key: String) -> [Value]? {
        guard let record = source.resolve(parent), let field = record[key], !field.isNull else { return nil }
        return resolver.elements(field) ?? [field]
    }
}

/// A leaf's semantics and negation flag, with the answer for a leaf whose operand reaches
/// nothing testable.
struct LeafRule {
    let semantics: LeafSemantics
    let negated: Bool

    /// `.sql`: false whether negated or not. Otherwise the test failed, and negation is NOT.
    func decideWithoutOperand() -> Bool { semantics == .sql ? false : negated }
}

extension Operand {
    /// The value unless it is null or missing.
    var nonNull: Value? {
        guard case .value(let v) = self, !v.isNull else { return nil }
        return v
    }
}

extension Expr {
    /// Written in the query (a literal or a list of literals) rather than read from the data.
    var isConstant: Bool {
        switch self {
        case .literal: return true
        case .list(let items): return items.allSatisfy(\.isConstant)
        default: return false
        }
    }
}
