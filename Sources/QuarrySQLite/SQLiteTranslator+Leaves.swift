import Quarry
import QuarryStoreSupport

/// What a test does for one non-null value.
enum SQLiteOutcome {
    /// SQL that is TRUE when the value passes and FALSE when it fails (NULL only when the value
    /// is NULL); `fails`, when given, is the cheaper SQL for "fails".
    case sql(String, fails: String?)
    /// Decided without looking at the value.
    case always(Bool)
    /// The test does not apply to the value (an ordered comparison across types): never a
    /// match, whether the leaf is negated or not under `.sql`; a failed test otherwise.
    case unknown
}

extension SQLiteTranslator {
    /// A leaf over one scalar operand `x`: `outcome` for a non-null x, and `nullPasses` for a
    /// null or missing x (before negation; `.sql` leaves are false on null either way).
    func scalarLeaf(_ x: String, _ outcome: SQLiteOutcome, nullPasses: Bool, _ rule: LeafRule) -> String {
        if rule.semantics == .sql {
            switch outcome {
            case .sql(let passes, let fails): return rule.negated ? (fails ?? "NOT (\(passes))") : passes
            case .always(let b): return b != rule.negated ? "(\(x) IS NOT NULL)" : "0"
            case .unknown: return "0"
            }
        }
        let nullResult = nullPasses != rule.negated
        switch outcome {
        case .sql(let passes, let fails):
            let body = rule.negated ? (fails ?? "NOT (\(passes))") : passes
            return nullResult ? "(\(x) IS NULL OR \(body))" : body
        case .always(let b):
            return constantUnlessNull(x, nonNull: b != rule.negated, null: nullResult)
        case .unknown:
            return constantUnlessNull(x, nonNull: rule.negated, null: nullResult)
        }
    }

    private func constantUnlessNull(_ x: String, nonNull: Bool, null: Bool) -> String {
        if nonNull == null { return nonNull ? "1" : "0" }
        return nonNull ? "(\(x) IS NOT NULL)" : "(\(x) IS NULL)"
    }

    /// A leaf over the elements of a JSON array `x`, `outcome` written over `value`:
    /// existential over the non-null elements under `.sql`; under `.document` the array matches
    /// when an element passes (the array itself never passes a scalar test); under
    /// `.predicate` the array is one value, which scalar tests do not apply to.
    func arrayLeaf(_ x: String, _ outcome: SQLiteOutcome, _ rule: LeafRule) -> String {
        switch rule.semantics {
        case .sql:
            switch outcome {
            case .sql(let passes, let fails):
                return exists(x, rule.negated ? (fails ?? "NOT (\(passes))") : passes)
            case .always(let b): return b != rule.negated ? exists(x, "value IS NOT NULL") : "0"
            case .unknown: return "0"
            }
        case .document:
            let found: String
            switch outcome {
            case .sql(let passes, _): found = exists(x, passes)
            case .always(let b): found = b ? exists(x, "value IS NOT NULL") : "0"
            case .unknown: found = "0"
            }
            return rule.negated ? "(NOT \(found))" : found
        case .predicate:
            return rule.negated ? "1" : "0"
        }
    }

    func exists(_ array: String, _ condition: String) -> String {
        "EXISTS (SELECT 1 FROM json_each(\(array)) WHERE \(condition))"
    }

    /// ` COLLATE NOCASE` for a case-insensitive test, when SQLite's ASCII folding is Quarry's:
    /// both the stored strings and the literal are ASCII (where diacritic folding changes
    /// nothing either).
    func collation(_ options: StringOptions, _ kind: SQLiteColumnKind?, _ literals: [Value]) throws(SQLiteNotComparable)
        -> String
    {
        guard !options.isEmpty, case .text(let ascii)? = kind else { return "" }
        let literalsASCII = literals.allSatisfy { v in
            if case .string(let s) = v { return s.utf8.allSatisfy { $0 < 0x80 } }
            return true
        }
        guard ascii, literalsASCII else {
            throw SQLiteNotComparable(
                "case- or diacritic-insensitive comparison of non-ASCII text folds differently in SQLite")
        }
        return options.contains(.caseInsensitive) ? " COLLATE NOCASE" : ""
    }

    // MARK: - Comparisons

    mutating func compare(
        _ l: Expr, _ op: ComparisonOperator, _ r: Expr, _ options: StringOptions, _ rule: LeafRule,
        _ row: Row
    ) throws(SQLiteNotComparable) -> String {
        switch (l, r) {
        case (.key(let path), .literal(let v)):
            if let sql = try targetMembership(path, op, v, options, rule, row) { return sql }
            return try compare(try operand(path, row), op, v, options, rule)
        case (.literal(let v), .key(let path)):
            if let sql = try targetMembership(path, op.swapped, v, options, rule, row) { return sql }
            return try compare(try operand(path, row), op.swapped, v, options, rule)
        case (.key(let a), .key(let b)):
            return try compareKeys(try operand(a, row), op, try operand(b, row), options, rule)
        default:
            throw SQLiteNotComparable(
                "comparisons of computed values (arithmetic, functions, aggregates) are not translated")
        }
    }

    /// `pointer.field op literal` as `p IN (SELECT objectId FROM target WHERE field op ?)`, one
    /// pass over the target class instead of a lookup per row, where `LeafRule.targetComparison`
    /// allows it; nil otherwise.
    private mutating func targetMembership(
        _ path: FieldPath, _ op: ComparisonOperator, _ v: Value, _ options: StringOptions, _ rule: LeafRule,
        _ row: Row
    ) throws(SQLiteNotComparable) -> String? {
        guard let (pointer, field) = rule.targetComparison(path, op, v),
            case .pointer(let targetClass)? = row.table.kind(pointer), let target = tables[targetClass]
        else { return nil }
        switch target.kind(field) {
        case .integer?, .real?, .text?, .date?, .bool?: break
        default: return nil
        }
        let inner = try newRow(targetClass)
        let test = try compare(.key(FieldPath([field])), op, .literal(v), options, rule, inner)
        return
            "\(row.alias).\(row.table.column(pointer)) IN (SELECT \(inner.alias).objectId FROM \(target.name) AS \(inner.alias) WHERE \(test))"
    }

    private mutating func compare(
        _ x: SQLiteOperand, _ op: ComparisonOperator, _ v: Value, _ options: StringOptions,
        _ rule: LeafRule
    ) throws(SQLiteNotComparable) -> String {
        let equality = op == .eq || op == .ne
        switch x {
        case .geo: throw SQLiteNotComparable("comparing a geo point with = or < is not translated")
        case .scalar(let sql, let kind):
            if v.isNull {
                if rule.semantics == .sql { return "0" }
                // nil is a value for == and != (NSPredicate; Parse equality with null).
                guard equality else { return rule.negated ? "1" : "0" }
                return (op == .eq) != rule.negated ? "(\(sql) IS NULL)" : "(\(sql) IS NOT NULL)"
            }
            return scalarLeaf(sql, try comparison(sql, kind, op, v, options, rule), nullPasses: op == .ne, rule)
        case .array(let sql, let element):
            switch rule.semantics {
            case .predicate:
                if v.isNull {
                    guard equality else { return rule.negated ? "1" : "0" }
                    return (op == .eq) != rule.negated ? "(\(sql) IS NULL)" : "(\(sql) IS NOT NULL)"
                }
                if case .array = v {
                    throw SQLiteNotComparable("comparing an array with an array literal is not translated")
                }
                return scalarLeaf(sql, equality ? .always(op == .ne) : .unknown, nullPasses: op == .ne, rule)
            case .sql:
                if v.isNull { return "0" }
                return arrayLeaf(sql, try comparison("value", element, op, v, options, rule), rule)
            case .document:
                if case .array = v {
                    throw SQLiteNotComparable("comparing an array with an array literal is not translated")
                }
                guard equality else {
                    if v.isNull { return rule.negated ? "1" : "0" }
                    return arrayLeaf(sql, try comparison("value", element, op, v, options, rule), rule)
                }
                // Parse: the array or one of its elements equals the value; missing counts as null.
                let same: String
                if v.isNull {
                    same = "(\(sql) IS NULL OR \(exists(sql, "value IS NULL")))"
                } else {
                    let b = try binding(v, for: element, sqlDates: false, objectIdStrings: true)
                    same =
                        try b.map { b throws(SQLiteNotComparable) in
                            exists(sql, "value = \(parameter(b))\(try collation(options, element, [v]))")
                        } ?? "0"
                }
                return (op == .eq) != rule.negated ? same : "(NOT \(same))"
            }
        }
    }

    /// The outcome of `x op v` for a non-null x of `kind` and a non-null literal.
    mutating func comparison(
        _ x: String, _ kind: SQLiteColumnKind?, _ op: ComparisonOperator, _ v: Value,
        _ options: StringOptions, _ rule: LeafRule
    ) throws(SQLiteNotComparable) -> SQLiteOutcome {
        let equality = op == .eq || op == .ne
        let b = try binding(
            v, for: kind, sqlDates: rule.semantics == .sql,
            objectIdStrings: rule.semantics == .document && equality)
        guard let b, equality || !(kind?.isPointer ?? false) else {
            // Different types: never equal; an ordered comparison does not apply.
            return equality ? .always(op == .ne) : .unknown
        }
        let collate = try collation(options, kind, [v])
        let p = parameter(b)
        return .sql("\(x)\(collate) \(op.sql) \(p)", fails: "\(x)\(collate) \(op.complement.sql) \(p)")
    }

    private func compareKeys(
        _ a: SQLiteOperand, _ op: ComparisonOperator, _ b: SQLiteOperand, _ options: StringOptions,
        _ rule: LeafRule
    ) throws(SQLiteNotComparable) -> String {
        guard rule.semantics == .sql, case .scalar(let x, let kx?) = a, case .scalar(let y, let ky?) = b,
            kx.isComparable(with: ky), op == .eq || op == .ne || !kx.isPointer
        else {
            throw SQLiteNotComparable(
                "comparing two fields is translated only for SQL leaves over fields of one comparable type")
        }
        let collate = try collation(options, kx, [])
        _ = try collation(options, ky, [])
        // NULL on either side is NULL, negated or not: the strict SQL leaf.
        return rule.negated ? "\(x)\(collate) \(op.complement.sql) \(y)" : "\(x)\(collate) \(op.sql) \(y)"
    }

    // MARK: - BETWEEN

    mutating func between(_ e: Expr, _ lower: Expr, _ upper: Expr, _ rule: LeafRule, _ row: Row)
        throws(SQLiteNotComparable)
        -> String
    {
        guard case .key(let path) = e, case .literal(let lo) = lower, case .literal(let hi) = upper else {
            throw SQLiteNotComparable("BETWEEN is translated for a field and two literals only")
        }
        let x = try operand(path, row)
        if rule.semantics == .sql, lo.isNull || hi.isNull { return "0" }
        switch x {
        case .geo: throw SQLiteNotComparable("BETWEEN on a geo point is not translated")
        case .scalar(let sql, let kind):
            return scalarLeaf(sql, try betweenOutcome(sql, kind, lo, hi, rule), nullPasses: false, rule)
        case .array(let sql, let element):
            return arrayLeaf(sql, try betweenOutcome("value", element, lo, hi, rule), rule)
        }
    }

    private mutating func betweenOutcome(
        _ x: String, _ kind: SQLiteColumnKind?, _ lo: Value, _ hi: Value,
        _ rule: LeafRule
    ) throws(SQLiteNotComparable) -> SQLiteOutcome {
        let sqlDates = rule.semantics == .sql
        guard !(kind?.isPointer ?? false),
            let bl = try binding(lo, for: kind, sqlDates: sqlDates, objectIdStrings: false),
            let bh = try binding(hi, for: kind, sqlDates: sqlDates, objectIdStrings: false)
        else { return .unknown }
        let pl = parameter(bl), ph = parameter(bh)
        return .sql("\(x) BETWEEN \(pl) AND \(ph)", fails: "\(x) NOT BETWEEN \(pl) AND \(ph)")
    }

    // MARK: - IN

    mutating func inCollection(
        _ e: Expr, _ collection: Expr, _ options: StringOptions, _ rule: LeafRule,
        _ row: Row
    ) throws(SQLiteNotComparable) -> String {
        switch (e, collection) {
        case (.key(let path), _):
            guard let members = collection.literalValues else {
                throw SQLiteNotComparable("IN is translated for a literal list, or a literal in an array field")
            }
            return try keyInList(try operand(path, row), members, options, rule)
        case (.literal(let v), .key(let path)):
            return try literalInArray(v, try operand(path, row), options, rule)
        default:
            throw SQLiteNotComparable("IN over computed values is not translated")
        }
    }

    private mutating func keyInList(
        _ x: SQLiteOperand, _ members: [Value], _ options: StringOptions,
        _ rule: LeafRule
    ) throws(SQLiteNotComparable) -> String {
        let hasNull = rule.semantics != .sql && members.contains(where: \.isNull)
        switch x {
        case .geo: throw SQLiteNotComparable("IN on a geo point is not translated")
        case .scalar(let sql, let kind):
            return scalarLeaf(sql, try membership(sql, kind, members, options, rule), nullPasses: hasNull, rule)
        case .array(let sql, let element):
            if members.contains(where: { if case .array = $0 { return true } else { return false } }) {
                throw SQLiteNotComparable("IN with array members over an array field is not translated")
            }
            switch rule.semantics {
            case .sql:
                return arrayLeaf(sql, try membership("value", element, members, options, rule), rule)
            case .predicate:
                return scalarLeaf(sql, .always(false), nullPasses: hasNull, rule)
            case .document:
                var found: [String] = []
                if case .sql(let passes, _) = try membership("value", element, members, options, rule) {
                    found.append(exists(sql, passes))
                }
                if hasNull { found.append("\(sql) IS NULL"); found.append(exists(sql, "value IS NULL")) }
                let any = found.isEmpty ? "0" : "(" + found.joined(separator: " OR ") + ")"
                return rule.negated ? "(NOT \(any))" : any
            }
        }
    }

    /// The outcome of "x equals one of the members" for a non-null x.
    private mutating func membership(
        _ x: String, _ kind: SQLiteColumnKind?, _ members: [Value], _ options: StringOptions,
        _ rule: LeafRule
    ) throws(SQLiteNotComparable) -> SQLiteOutcome {
        var bound: [SQLiteBinding] = []
        for m in members where !m.isNull {
            if let b = try binding(
                m, for: kind, sqlDates: rule.semantics == .sql,
                objectIdStrings: rule.semantics == .document),
                !bound.contains(b)
            {
                bound.append(b)
            }
        }
        guard !bound.isEmpty else { return .always(false) }
        let collate = try collation(options, kind, members)
        let list = parameterList(bound)
        return .sql("\(x)\(collate) IN \(list)", fails: "\(x)\(collate) NOT IN \(list)")
    }

    /// `'a' IN tags`: the literal equals an element of the array field.
    private mutating func literalInArray(
        _ v: Value, _ x: SQLiteOperand, _ options: StringOptions,
        _ rule: LeafRule
    ) throws(SQLiteNotComparable) -> String {
        guard case .array(let sql, let element) = x else {
            throw SQLiteNotComparable(
                "IN over a field that is not an array (a substring test in NSPredicate) is not translated")
        }
        let found: String
        if v.isNull {
            if rule.semantics == .sql { return "0" }
            found = exists(sql, "value IS NULL")
        } else if let b = try binding(
            v, for: element, sqlDates: rule.semantics == .sql,
            objectIdStrings: rule.semantics == .document)
        {
            found = exists(sql, "value\(try collation(options, element, [v])) = \(parameter(b))")
        } else {
            found = "0"
        }
        if !rule.negated { return found }
        // A null array is unknown under .sql, so NOT IN does not hold for it either.
        return rule.semantics == .sql ? "(\(sql) IS NOT NULL AND NOT \(found))" : "(NOT \(found))"
    }

    // MARK: - IS NULL

    mutating func isNull(_ e: Expr, _ rule: LeafRule, _ row: Row) throws(SQLiteNotComparable) -> String {
        guard case .key(let path) = e else {
            throw SQLiteNotComparable("IS NULL of a computed value is not translated")
        }
        let test: String
        switch try operand(path, row) {
        case .scalar(let sql, _): test = "\(sql) IS NULL"
        case .geo(let lat, _): test = "\(lat) IS NULL"
        case .array(let sql, _):
            // Under .sql an array reaches its non-null elements: with none it is null.
            test =
                rule.semantics == .sql
                ? "(\(sql) IS NULL OR NOT \(exists(sql, "value IS NOT NULL")))"
                : "\(sql) IS NULL"
        }
        return rule.negated ? "(NOT (\(test)))" : "(\(test))"
    }
}

extension SQLiteColumnKind {
    var isPointer: Bool {
        if case .pointer = self { return true }
        return false
    }
}
