import Quarry
import QuarryStoreSupport

extension SQLiteTranslator {
    /// Array tests on the whole array: `$all`, `$containedBy`, `$size`.
    mutating func containsAll(_ e: Expr, _ listExpr: Expr, _ rule: LeafRule, _ row: Row) throws(SQLiteNotComparable)
        -> String
    {
        if rule.semantics == .document, case .key(let path) = e {
            switch try operand(path, row) {
            case .scalar(let x, let kind?): return try allEqual(x, kind, listExpr, rule)
            case .geo: throw SQLiteNotComparable("$all on a geo point is not translated")
            default: break
            }
        }
        guard case .array(let x, let element) = try arrayOperand(e, row) else { return rule.withoutOperand ? "1" : "0" }
        var tests: [String] = []
        for m in try list(listExpr) {
            if m.isNull {
                tests.append(exists(x, "value IS NULL"))
            } else if let b = try binding(
                m, for: element, sqlDates: false, objectIdStrings: rule.semantics == .document)
            {
                tests.append(exists(x, "value = \(parameter(b))"))
            } else {
                tests.append("0")
            }
        }
        // An empty list contains nothing (Parse: `$all: []` matches no object).
        let all = tests.isEmpty ? "0" : "(" + tests.joined(separator: " AND ") + ")"
        return rule.wholeArray(x, all, strict: false)
    }

    /// `$all` on a field that holds single values: MongoDB reads it as an AND of equalities,
    /// which a non-null value passes when it equals every member (none is null, the list is not
    /// empty); a null or missing value decides as `withoutOperand`, as for an array test.
    private mutating func allEqual(_ x: String, _ kind: SQLiteColumnKind, _ listExpr: Expr, _ rule: LeafRule)
        throws(SQLiteNotComparable) -> String
    {
        let members = try list(listExpr)
        var tests: [String] = []
        for m in members {
            if m.isNull {
                tests = ["0"]
                break
            }
            switch try comparison(x, kind, .eq, m, [], LeafRule(semantics: .document, negated: false)) {
            case .sql(let passes, _): tests.append(passes)
            case .always(let equal): if !equal { tests.append("0") }
            case .unknown: tests.append("0")
            }
        }
        let all = members.isEmpty ? "0" : tests.isEmpty ? "1" : "(" + tests.joined(separator: " AND ") + ")"
        return rule.wholeArray(x, all, strict: false)
    }

    mutating func containedBy(_ e: Expr, _ listExpr: Expr, _ rule: LeafRule, _ row: Row) throws(SQLiteNotComparable)
        -> String
    {
        guard case .array(let x, let element) = try arrayOperand(e, row) else { return rule.withoutOperand ? "1" : "0" }
        let members = try list(listExpr)
        let hasNull = members.contains(where: \.isNull)
        var bound: [SQLiteBinding] = []
        for m in members where !m.isNull {
            if let b = try binding(m, for: element, sqlDates: false, objectIdStrings: rule.semantics == .document),
                !bound.contains(b)
            {
                bound.append(b)
            }
        }
        let violation: String
        switch (hasNull, bound.isEmpty) {
        case (true, true): violation = "value IS NOT NULL"
        case (true, false): violation = "value IS NOT NULL AND value NOT IN \(parameterList(bound))"
        case (false, true): violation = "1"
        case (false, false): violation = "(value IS NULL OR value NOT IN \(parameterList(bound)))"
        }
        return rule.wholeArray(x, "NOT \(exists(x, violation))", strict: false)
    }

    mutating func arraySize(_ e: Expr, _ size: Int, _ rule: LeafRule, _ row: Row) throws(SQLiteNotComparable) -> String
    {
        guard case .array(let x, _) = try arrayOperand(e, row) else { return rule.withoutOperand ? "1" : "0" }
        return rule.wholeArray(x, "json_array_length(\(x)) = \(parameter(.int(Int64(size))))", strict: true)
    }

    /// The operand of an array test; nil when it is not an array (the test then does not apply).
    private func arrayOperand(_ e: Expr, _ row: Row) throws(SQLiteNotComparable) -> SQLiteOperand? {
        guard case .key(let path) = e else {
            throw SQLiteNotComparable("array tests of computed values are not translated")
        }
        let x = try operand(path, row)
        if case .array = x { return x }
        return nil
    }

    /// The members of a literal list.
    private func list(_ e: Expr) throws(SQLiteNotComparable) -> [Value] {
        guard let members = e.arrayTestMembers else {
            throw SQLiteNotComparable("array tests against computed lists are not translated")
        }
        return members
    }

    // MARK: - Inner queries and relations

    /// `$inQuery`: the pointer (or one pointer of the array) is among the inner query's objects.
    mutating func inQuery(_ key: FieldPath, _ inner: Query, _ rule: LeafRule, _ row: Row) throws(SQLiteNotComparable)
        -> String
    {
        let x = try operand(key, row)
        let ids = try innerRows(inner, innerKey: nil)
        func outcome(_ kind: SQLiteColumnKind?, _ v: String) -> SQLiteOutcome {
            guard case .pointer(let target)? = kind else { return .unknown }
            return target == inner.className ? .sql("\(v) IN (\(ids))", fails: notIn(v, ids)) : .always(false)
        }
        return try membershipLeaf(x, outcome, rule)
    }

    /// `$select` and `IN (Table[where].column)`: the value is among the inner query's values.
    mutating func select(
        _ key: FieldPath, _ inner: Query, _ innerKey: FieldPath, _ rule: LeafRule,
        _ row: Row
    ) throws(SQLiteNotComparable) -> String {
        let x = try operand(key, row)
        guard innerKey.count == 1, let innerTable = tables[inner.className] else {
            throw SQLiteNotComparable("inner queries are translated for one field of a loaded class")
        }
        let innerKind = innerTable.kind(innerKey.first)
        switch innerKind {
        case .array?, .geoPoint?:
            throw SQLiteNotComparable("selecting \(innerKey) (an array or a geo point) is not translated")
        case .unsupported(let reason)?:
            throw SQLiteNotComparable("\(inner.className).\(innerKey) is not loaded into SQLite: \(reason)")
        default: break
        }
        let values = try innerRows(inner, innerKey: innerKey.first)
        let document = rule.semantics == .document
        func outcome(_ kind: SQLiteColumnKind?, _ v: String) -> SQLiteOutcome {
            guard let kind, let innerKind else { return .always(false) }
            let objectIdMatch =
                document && ((kind.isPointer && innerKind.isText) || (kind.isText && innerKind.isPointer))
            guard kind.isComparable(with: innerKind) || objectIdMatch else { return .always(false) }
            return .sql("\(v) IN (\(values))", fails: notIn(v, values))
        }
        return try membershipLeaf(x, outcome, rule)
    }

    /// "Not among the inner query's rows", NULL (or FALSE) for a NULL value: SQL's `NULL NOT
    /// IN (empty)` is TRUE, which would let a null or missing value pass a negated leaf when the
    /// inner query yields nothing.
    private func notIn(_ v: String, _ rows: String) -> String {
        "(\(v) IS NOT NULL AND \(v) NOT IN (\(rows)))"
    }

    /// Membership in an inner query's results: existential over an array under every
    /// semantics (IR: "the pointer, or any pointer of the array").
    private func membershipLeaf(
        _ x: SQLiteOperand, _ outcome: (SQLiteColumnKind?, String) -> SQLiteOutcome,
        _ rule: LeafRule
    ) throws(SQLiteNotComparable) -> String {
        switch x {
        case .geo: throw SQLiteNotComparable("a geo point in an inner-query test is not translated")
        case .scalar(let sql, let kind): return scalarLeaf(sql, outcome(kind, sql), nullPasses: false, rule)
        case .array(let sql, let element):
            let existential = rule.semantics == .sql ? rule : LeafRule(semantics: .document, negated: rule.negated)
            return arrayLeaf(sql, outcome(element, "value"), existential)
        }
    }

    /// The inner query's objectIds (or its non-null values of `innerKey`), after its order,
    /// skip and limit, the limit following its profile as Quarry's evaluator does.
    private mutating func innerRows(_ inner: Query, innerKey: String?) throws(SQLiteNotComparable) -> String {
        let row = try newRow(inner.className)
        let filter = try predicate(inner.predicate, row, positive: true)
        var limit = inner.profile.defaultInnerLimit
        if let own = inner.limit { limit = inner.profile.maxInnerLimit.map { Swift.min(own, $0) } ?? own }
        let column =
            innerKey.map { $0 == "objectId" ? "\(row.alias).objectId" : "\(row.alias).\(row.table.column($0))" }
            ?? "\(row.alias).objectId"
        let rows = try self.rows(inner, row, column: "\(column) AS v", filter: filter, limit: limit)
        guard innerKey != nil else { return rows }
        return "SELECT v FROM (\(rows)) WHERE v IS NOT NULL"
    }

    /// `$relatedTo`: the object is listed in the relation `key` of the parent object.
    mutating func relatedTo(_ parent: Pointer, _ key: String, _ rule: LeafRule, _ row: Row) throws(SQLiteNotComparable)
        -> String
    {
        guard let parentTable = tables[parent.className], parentTable.fields.contains(key) else {
            return rule.withoutOperand ? "1" : "0"
        }
        let field =
            "(SELECT \(parentTable.column(key)) FROM \(parentTable.name) WHERE objectId = \(parameter(.text(parent.objectId))))"
        let me = "\(row.alias).objectId"
        let listed: String
        switch parentTable.kind(key) {
        case .unsupported(let reason)?:
            throw SQLiteNotComparable("\(parent.className).\(key) is not loaded into SQLite: \(reason)")
        case .array(.pointer(let c)?)? where c == row.table.className:
            // The nulls left out: one would make `NOT IN` unknown. An IN, not an EXISTS per row,
            // lets SQLite look the few listed objects up by objectId.
            listed = "\(me) IN (SELECT value FROM json_each(\(field)) WHERE value IS NOT NULL)"
        case .pointer(let c)? where c == row.table.className:
            listed = "\(me) IS \(field)"
        case nil, .array?:
            listed = "0"
        default:
            // A single value that is not a pointer to this class lists nothing.
            listed = "0"
        }
        return rule.related(listed, field: field)
    }
}

extension SQLiteColumnKind {
    var isText: Bool {
        if case .text = self { return true }
        return false
    }
}
