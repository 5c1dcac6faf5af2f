import Quarry
import QuarryStoreSupport

extension PostgresTranslator {
    /// `$inQuery`/`$notInQuery` on a pointer to the inner query's class, as an IN-subselect
    /// with the inner query's order, skip and its profile's inner-query limit, as Quarry's
    /// evaluator applies them (docs/STORAGE.md#postgresql-inner-queries). The pushdown only
    /// gets here when the conjunct cannot throw, so the inner query cannot fail; anything the
    /// subselect could not say exactly (an untranslatable inner predicate, a geo distance that
    /// is only a superset filter, an order PostgreSQL cannot follow) leaves it residual.
    mutating func inQuery(_ key: FieldPath, _ inner: Query, _ rule: LeafRule, _ row: Row) throws(PostgresNotComparable)
        -> String
    {
        guard case .scalar(let x, let kind) = try operand(key, row) else {
            throw PostgresNotComparable("$inQuery is pushed down only on a pointer to the inner query's class")
        }
        // A field no object holds: every row decides without an operand.
        guard let kind else { return rule.withoutOperand ? "TRUE" : "FALSE" }
        guard kind == .pointer(to: inner.className) else {
            throw PostgresNotComparable("$inQuery is pushed down only on a pointer to the inner query's class")
        }
        let members = "\(x) IN (\(try innerIds(inner)))"
        guard rule.negated else { return "(\(members))" }
        return rule.withoutOperand ? "(\(x) IS NULL OR NOT \(members))" : "(\(x) IS NOT NULL AND NOT \(members))"
    }

    /// `$select`/`$dontSelect` and `IN (Class[where].key)`: the value, or under every semantics
    /// one element of the array, equals one of the inner query's non-null values of `innerKey`,
    /// with Quarry's equality (`InnerValues`): one kind on both sides (numbers by value, strings
    /// by their bytes, pointers by identity), and under the document semantics a string and a
    /// pointer with that objectId.
    mutating func select(_ key: FieldPath, _ inner: Query, _ innerKey: FieldPath, _ rule: LeafRule, _ row: Row)
        throws(PostgresNotComparable) -> String
    {
        let x = try operand(key, row)
        guard let innerClass = catalog.classes[inner.className] else {
            throw PostgresNotComparable("an inner query on a class the store does not have is evaluated by Quarry")
        }
        guard innerKey.count == 1 else {
            throw PostgresNotComparable("$select of a key path (not one field) is evaluated by Quarry")
        }
        let innerKind = innerKey.first == "objectId" ? .text : innerClass.field(innerKey.first)?.kind
        switch innerKind {
        case .array?, .geoPoint?:
            throw PostgresNotComparable("$select of an array or a geo point is evaluated by Quarry")
        case .unsupported(let reason)?:
            throw PostgresNotComparable("\(inner.className).\(innerKey) is not pushed down: \(reason)")
        default: break
        }
        let document = rule.semantics == .document
        func comparable(_ kind: PostgresKind?) -> Bool {
            guard let kind, let innerKind else { return false }
            if kind == innerKind { return true }
            return document && ((kind.isPointer && innerKind == .text) || (kind == .text && innerKind.isPointer))
        }
        switch x {
        case .geo: throw PostgresNotComparable("comparing a geo point with = or < is evaluated by Quarry")
        case .scalar(let sql, let kind):
            guard comparable(kind) else { return scalarLeaf(sql, .always(false), nullPasses: false, rule) }
            let values = try innerValues(inner, innerKey, asElements: false)
            return scalarLeaf(
                sql, .sql("\(sql) IN (\(values))", fails: Self.notIn(sql, values)), nullPasses: false, rule)
        case .array(let sql, let element):
            // Existential over the elements under every semantics, as the reference decides it.
            let existential = rule.semantics == .sql ? rule : LeafRule(semantics: .document, negated: rule.negated)
            guard comparable(element) else { return arrayLeaf(sql, .always(false), existential) }
            let value = Self.element(element)
            let values = try innerValues(inner, innerKey, asElements: true)
            return arrayLeaf(sql, .sql("\(value) IN (\(values))", fails: Self.notIn(value, values)), existential)
        }
    }

    /// `$relatedTo`: the object is listed in the field `key` of the parent object (a relation,
    /// an array of pointers, or one pointer, to this class). A missing parent, or a missing or
    /// null field, decides as `withoutOperand`.
    mutating func relatedTo(_ parent: Pointer, _ key: String, _ rule: LeafRule, _ row: Row)
        throws(PostgresNotComparable) -> String
    {
        guard let parentClass = catalog.classes[parent.className], let field = parentClass.field(key),
            let alias = newRow(parent.className)?.alias
        else { return rule.withoutOperand ? "TRUE" : "FALSE" }
        let owner =
            "FROM \(parentClass.table) AS \(alias) WHERE \(alias).objectid = \(parameter(parent.objectId, "text"))"
        let value = "(SELECT \(alias).doc->'f\(field.number)' \(owner))"
        let me = "\(row.alias).objectid"
        let listed: String
        switch field.kind {
        case .unsupported(let reason)?:
            throw PostgresNotComparable("\(parent.className).\(key) is not pushed down: \(reason)")
        case .array(.pointer(let c)?)? where c == row.table.name:
            // The nulls left out: one would make `NOT IN` unknown. An IN, not an EXISTS per row,
            // lets PostgreSQL look the few listed objects up by objectid.
            listed =
                "(\(me) IN (SELECT e.value FROM jsonb_array_elements_text(\(value)) AS e(value) WHERE e.value IS NOT NULL))"
        case .pointer(let c)? where c == row.table.name:
            listed = "(\(me) IS NOT DISTINCT FROM (SELECT \(alias).doc->>'f\(field.number)' \(owner)))"
        default:
            // Nothing else lists an object of this class.
            listed = "FALSE"
        }
        return rule.related(listed, field: value)
    }

    /// "Not among the inner query's values", never TRUE for NULL: SQL's `NULL NOT IN (empty)` is
    /// TRUE, which would let a missing value pass a negated leaf when the inner query yields
    /// nothing.
    private static func notIn(_ v: String, _ values: String) -> String {
        "(\(v) IS NOT NULL AND \(v) NOT IN (\(values)))"
    }

    /// The inner query's non-null values of one field, in the form the outer operand has: `jsonb`
    /// for numbers, dates and bools (or, against an array's elements, `numeric`/`boolean`), text
    /// in the "C" collation for strings and pointers.
    private mutating func innerValues(_ inner: Query, _ innerKey: FieldPath, asElements: Bool)
        throws(PostgresNotComparable) -> String
    {
        try innerRows(inner) { translator, innerRow throws(PostgresNotComparable) in
            guard case .scalar(let v, let kind) = try translator.operand(innerKey, innerRow) else {
                throw PostgresNotComparable("$select of an array or a geo point is evaluated by Quarry")
            }
            switch (kind, asElements) {
            case (.number?, true), (.date?, true): return "(\(v))::numeric"
            case (.bool?, true): return "(\(v))::boolean"
            default: return v
            }
        } filter: {
            "\($0) IS NOT NULL"
        }
    }

    /// The inner query's objectIds, in its order, after its skip and limit.
    private mutating func innerIds(_ inner: Query) throws(PostgresNotComparable) -> String {
        try innerRows(inner) { _, innerRow in
            "\(innerRow.alias).objectid"
        } filter: { _ in
            nil
        }
    }

    /// `SELECT column FROM` the inner query's class, in its order, after its skip and limit;
    /// `filter`, given the column, keeps only the rows it names (after the limit).
    private mutating func innerRows(
        _ inner: Query, column: (PostgresTranslator, Row) throws(PostgresNotComparable) -> String,
        filter: (String) -> String?
    ) throws(PostgresNotComparable) -> String {
        guard let innerRow = newRow(inner.className) else {
            throw PostgresNotComparable("an inner query on a class the store does not have is evaluated by Quarry")
        }
        guard (inner.skip ?? 0) >= 0, (inner.limit ?? 0) >= 0 else {
            throw PostgresNotComparable("an inner query with a negative skip or limit is evaluated by Quarry")
        }
        // A superset of the inner rows (a regex's LIKE included) would change which rows its
        // limit keeps: the inner predicate is translated exactly or not at all.
        let (outerNarrowing, outerSupersets) = (narrowing, regexSupersets)
        (narrowing, regexSupersets) = (nil, false)
        defer { regexSupersets = outerSupersets }
        let predicate = try self.predicate(inner.predicate, innerRow, positive: true)
        if narrowing != nil {
            throw PostgresNotComparable(
                "a superset filter (a geo distance, a folded string test) in an inner query is evaluated by Quarry")
        }
        narrowing = outerNarrowing
        let terms: [String]
        do throws(PostgresNotComparable) { terms = try orderTerms(inner, innerRow) } catch {
            throw PostgresNotComparable("an inner query whose order PostgreSQL cannot follow is evaluated by Quarry")
        }
        var limit = inner.profile.defaultInnerLimit
        if let own = inner.limit { limit = inner.profile.maxInnerLimit.map { Swift.min(own, $0) } ?? own }
        let selected = try column(self, innerRow)
        var sql =
            "SELECT \(selected) AS v FROM \(innerRow.table.table) AS \(innerRow.alias) WHERE \(predicate)"
            + " ORDER BY " + terms.joined(separator: ", ")
        if let limit { sql += " LIMIT " + parameter(String(limit), "bigint") }
        if let skip = inner.skip, skip > 0 { sql += " OFFSET " + parameter(String(skip), "bigint") }
        guard let kept = filter("q.v") else { return sql }
        return "SELECT q.v FROM (\(sql)) AS q WHERE \(kept)"
    }
}
