import QuarryCore

// Leaves. A `.document` leaf prints as its operator. `.sql` and `.predicate` leaves print only
// where their rule for null, missing and array operands gives the same answer as Parse's:
//
// - A positive `.sql` test against non-null literals (`=`, `<`, `IN`, LIKE, geo, …) agrees for
//   all data: both are false on null or missing and existential over array elements.
// - On a key the schema shows to hold one non-array value at most, the differences vanish:
//   a negated `.sql` leaf is "not the test, and the field is set" (`$nor` + `$exists`), and a
//   `.predicate` leaf is the document leaf.
// - Anything else (SQL's `!=` or IS NULL on a field that may hold an array, NSPredicate's
//   whole-collection tests) has no `where` equivalent and is reported.
extension Printer {
    mutating func leaf(_ l: Leaf, className: String, at location: Location) -> [Piece] {
        let condition = Printer.swappingLiteralFirst(l.condition)
        switch l.semantics {
        case .document:
            return document(condition, negated: l.negated, className: className, at: location)
        case .sql:
            if !l.negated, Printer.agreesWithDocument(condition) {
                return document(condition, negated: false, className: className, at: location)
            }
            if isScalar(condition, className: className) {
                return sqlOnScalar(condition, negated: l.negated, className: className, at: location)
            }
        case .predicate:
            if isScalar(condition, className: className) {
                if case .between(let e, let lo, let hi) = condition {
                    return between(e, lo, hi, negated: l.negated, className: className, at: location)
                }
                // NSPredicate's `!=` treats nil as a value: exactly Parse's `$ne`.
                if case .compare(let k, .ne, let r, let opts) = condition {
                    return document(.compare(k, .eq, r, opts), negated: !l.negated, className: className, at: location)
                }
                return document(condition, negated: l.negated, className: className, at: location)
            }
        }
        if case .key? = Printer.subject(of: condition), Printer.isSimple(condition) {
            inexpressible(
                "this \(l.semantics) test (\(Printer.describe(condition)))", at: location,
                notes: [
                    "its rule for null, missing or array values differs from Parse's; a schema "
                        + "showing the field holds single values lets it translate"
                ])
        } else {
            inexpressible("\(Printer.describe(condition)) on \(Printer.subjectDescription(condition))", at: location)
        }
        return []
    }

    /// `5 < age` reads as `age > 5`.
    static func swappingLiteralFirst(_ c: Condition) -> Condition {
        if case .compare(let l, let op, let r, let opts) = c, case .literal = l, case .key = r {
            return .compare(r, op.swapped, l, opts)
        }
        return c
    }

    /// Positive SQL tests that Parse answers the same way for every value, arrays included.
    static func agreesWithDocument(_ c: Condition) -> Bool {
        switch c {
        case .compare(.key, let op, .literal(let v), let opts):
            return op != .ne && !v.isNull && opts.isEmpty
        case .inCollection(.key, .list(let items), let opts):
            return opts.isEmpty && items.allSatisfy { if case .literal(let v) = $0 { !v.isNull } else { false } }
        case .string(.key, _, .literal, let opts):
            return !opts.contains(.diacriticInsensitive)
        case .containsAll, .containedBy, .arraySize, .geo, .inQuery, .select, .relatedTo, .text:
            return true
        default:
            return false
        }
    }

    private mutating func sqlOnScalar(
        _ c: Condition, negated: Bool, className: String,
        at location: Location
    ) -> [Piece] {
        // SQL: a null or missing operand makes the leaf false either way.
        if case .compare(_, _, .literal(.null), _) = c {
            return pieces(.constant(false), className: className, at: location)
        }
        if case .isNull = c { return document(c, negated: negated, className: className, at: location) }
        if case .between(let e, let lo, let hi) = c {
            let range = between(e, lo, hi, negated: negated, className: className, at: location)
            guard negated, case .key(let path) = e else { return range }
            return range + [.op(path.description, .exists(true))]
        }
        if case .compare(let k, .ne, let r, let opts) = c {
            let positive = Condition.compare(k, .eq, r, opts)
            return sqlOnScalar(positive, negated: !negated, className: className, at: location)
        }
        guard negated else { return document(c, negated: false, className: className, at: location) }
        guard case .key(let path) = Printer.subject(of: c) else {
            inexpressible(Printer.describe(c), at: location)
            return []
        }
        return document(c, negated: true, className: className, at: location)
            + [.op(path.description, .exists(true))]
    }

    private mutating func between(
        _ e: Expr, _ lo: Expr, _ hi: Expr, negated: Bool, className: String,
        at location: Location
    ) -> [Piece] {
        let range = Filter.and([.leaf(.compare(e, .ge, lo, []), .document), .leaf(.compare(e, .le, hi, []), .document)])
        return pieces(negated ? .not(range) : range, className: className, at: location)
    }

    /// A test of a key against literals, which a schema could make translatable.
    static func isSimple(_ c: Condition) -> Bool {
        func literal(_ e: Expr) -> Bool {
            switch e {
            case .literal: return true
            case .list(let items): return items.allSatisfy(literal)
            default: return false
            }
        }
        switch c {
        case .compare(_, _, let r, _), .inCollection(_, let r, _), .string(_, _, let r, _): return literal(r)
        case .between(_, let lo, let hi): return literal(lo) && literal(hi)
        case .isNull: return true
        default: return false
        }
    }

    /// Whether the schema shows the leaf's key holds at most one non-array value per object.
    func isScalar(_ c: Condition, className: String) -> Bool {
        guard let schema, case .key(let path)? = Printer.subject(of: c) else { return false }
        var cls = className
        for (i, name) in path.components.enumerated() {
            let last = i == path.count - 1
            guard let type = schema.fieldType(name, in: cls) else { return false }
            switch type {
            case .pointer(let target):
                if last { return true }
                cls = target
            case .array, .relation, .mixed:
                return false
            case .geoPoint:
                return last || (i == path.count - 2 && ["latitude", "longitude"].contains(path.last))
            default:
                return last
            }
        }
        return false
    }

    /// The expression a leaf tests, when it tests one.
    static func subject(of c: Condition) -> Expr? {
        switch c {
        case .compare(let e, _, _, _), .between(let e, _, _), .inCollection(let e, _, _), .isNull(let e),
            .string(let e, _, _, _), .containsAll(let e, _), .containedBy(let e, _), .arraySize(let e, _):
            return e
        case .geo(let g): return .key(g.key)
        case .inQuery(let k, _), .select(let k, _, _), .text(let k, _): return .key(k)
        case .quantified, .relatedTo: return nil
        }
    }

    static func describe(_ c: Condition) -> String {
        switch c {
        case .compare(_, let op, _, _): return "comparison '\(op.rawValue)'"
        case .between: return "BETWEEN"
        case .inCollection: return "IN"
        case .isNull: return "null test"
        case .string(_, let op, _, _):
            switch op {
            case .beginsWith: return "BEGINSWITH"
            case .endsWith: return "ENDSWITH"
            case .contains: return "CONTAINS"
            case .like: return "LIKE"
            case .matches: return "MATCHES"
            }
        case .containsAll: return "contains-all"
        case .containedBy: return "contained-by"
        case .arraySize: return "array size"
        case .quantified(let q, _, _, _): return "\(q.rawValue.uppercased()) quantifier"
        case .geo: return "geo test"
        case .inQuery: return "inner query"
        case .select: return "select"
        case .relatedTo: return "relatedTo"
        case .text: return "text search"
        }
    }
}
