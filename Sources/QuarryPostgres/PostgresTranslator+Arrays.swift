import Quarry
import QuarryStoreSupport

/// Tests on a whole array (`$all`, `$containedBy`, `$size`), with the reference's rules
/// (docs/STORAGE.md#postgresql-pushdown): the members compare with the array's elements as
/// an equality with the element does (`binding`), a null member matches a null element, and a
/// null or missing array, or a field that holds no arrays, decides as `withoutOperand`.
extension PostgresTranslator {
    /// `$all`: every member equals some element; an empty list matches nothing (Parse).
    mutating func containsAll(_ e: Expr, _ listExpr: Expr, _ rule: LeafRule, _ row: Row)
        throws(PostgresNotComparable) -> String
    {
        if rule.semantics == .document, case .key(let path) = e {
            switch try operand(path, row) {
            case .scalar(let x, let kind?): return try allEqual(x, kind, listExpr, rule)
            case .geo: throw PostgresNotComparable("comparing a geo point with = or < is evaluated by Quarry")
            default: break
            }
        }
        guard case .array(let x, let element) = try arrayOperand(e, row) else { return constant(rule.withoutOperand) }
        var tests: [String] = []
        for m in try literalList(listExpr) {
            if m.isNull {
                tests.append(exists(x, "value IS NULL"))
            } else if let b = try binding(
                m, for: element, sqlDates: false, objectIdStrings: rule.semantics == .document, element: true)
            {
                tests.append(exists(x, "\(Self.element(element)) = \(parameter(b))"))
            } else {
                tests.append("FALSE")
            }
        }
        let all = tests.isEmpty ? "FALSE" : "(" + tests.joined(separator: " AND ") + ")"
        return rule.wholeArray(x, all, strict: false)
    }

    /// `$all` on a field of single values: MongoDB's AND of equalities, which a non-null value
    /// passes when it equals every member (none null, the list not empty).
    private mutating func allEqual(_ x: String, _ kind: PostgresKind, _ listExpr: Expr, _ rule: LeafRule)
        throws(PostgresNotComparable) -> String
    {
        let members = try literalList(listExpr)
        var tests: [String] = []
        for m in members {
            if m.isNull {
                tests = ["FALSE"]
                break
            }
            switch try comparison(x, kind, .eq, m, [], LeafRule(semantics: .document, negated: false), element: false)
            {
            case .sql(let passes, _): tests.append(passes)
            case .always(let equal): if !equal { tests.append("FALSE") }
            case .unknown: tests.append("FALSE")
            }
        }
        let all = members.isEmpty ? "FALSE" : tests.isEmpty ? "TRUE" : "(" + tests.joined(separator: " AND ") + ")"
        return rule.wholeArray(x, all, strict: false)
    }

    /// `$containedBy`: no element is outside the list (an empty array is contained in any).
    mutating func containedBy(_ e: Expr, _ listExpr: Expr, _ rule: LeafRule, _ row: Row)
        throws(PostgresNotComparable) -> String
    {
        guard case .array(let x, let element) = try arrayOperand(e, row) else { return constant(rule.withoutOperand) }
        let members = try literalList(listExpr)
        let hasNull = members.contains(where: \.isNull)
        var bound: [Literal] = []
        for m in members where !m.isNull {
            if let b = try binding(
                m, for: element, sqlDates: false, objectIdStrings: rule.semantics == .document, element: true),
                !bound.contains(b)
            {
                bound.append(b)
            }
        }
        let value = Self.element(element)
        let violation: String
        switch (hasNull, bound.isEmpty) {
        case (true, true): violation = "value IS NOT NULL"
        case (true, false): violation = "value IS NOT NULL AND \(value) NOT IN \(parameterList(bound))"
        case (false, true): violation = "TRUE"
        case (false, false): violation = "(value IS NULL OR \(value) NOT IN \(parameterList(bound)))"
        }
        return rule.wholeArray(x, "NOT \(exists(x, violation))", strict: false)
    }

    /// `$size`: the array has exactly `size` elements, nulls included.
    mutating func arraySize(_ e: Expr, _ size: Int, _ rule: LeafRule, _ row: Row) throws(PostgresNotComparable)
        -> String
    {
        guard case .array(let x, _) = try arrayOperand(e, row) else { return constant(rule.withoutOperand) }
        return rule.wholeArray(x, "jsonb_array_length(\(x)) = \(parameter(String(size), "bigint"))", strict: true)
    }

    /// The operand of an array test; nil when the field holds no arrays (the test does not apply).
    private func arrayOperand(_ e: Expr, _ row: Row) throws(PostgresNotComparable) -> PostgresOperand? {
        guard case .key(let path) = e else {
            throw PostgresNotComparable(
                "comparisons of computed values (arithmetic, functions, aggregates) are evaluated by Quarry")
        }
        let x = try operand(path, row)
        if case .array = x { return x }
        return nil
    }

    /// The members of a literal list.
    private func literalList(_ e: Expr) throws(PostgresNotComparable) -> [Value] {
        guard let members = e.arrayTestMembers else {
            throw PostgresNotComparable(
                "comparisons of computed values (arithmetic, functions, aggregates) are evaluated by Quarry")
        }
        return members
    }

    private func constant(_ b: Bool) -> String { b ? "TRUE" : "FALSE" }
}
