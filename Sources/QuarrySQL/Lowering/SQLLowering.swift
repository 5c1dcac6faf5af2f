import QuarryCore

/// AST → IR. Every leaf gets `.sql` semantics; NOT is pushed to the leaves (De Morgan), so the
/// IR never holds `.not`. With a schema, names are resolved and checked and date literals are
/// converted here. Collects every semantic error it finds instead of stopping at the first.
struct SQLLowering {
    let resolver: ColumnResolver
    let limits: Limits
    private(set) var diagnostics: [Diagnostic] = []
    /// Set while a template is made (`SQLTemplate`): hears of each literal the IR takes.
    var parameters: SQLParameterRecorder?
    private var subqueries = 0
    private var subqueryDepth = 0

    init(schema: (any Schema)?, limits: Limits) {
        self.resolver = ColumnResolver(schema: schema)
        self.limits = limits
    }

    mutating func lower(_ c: SQLCondition, in className: String?) -> Filter {
        switch c.kind {
        case .or(let items): return .or(items.map { lower($0, in: className) })
        case .and(let items): return .and(items.map { lower($0, in: className) })
        case .not(let inner): return lower(inner, in: className).pushingNotToLeaves()
        case .group(let inner): return lower(inner, in: className)
        case .constant(let b): return .constant(b)
        case .predicate(let p): return lower(p, in: className)
        }
    }

    mutating func lower(_ p: SQLPredicate, in className: String?) -> Filter {
        do throws(Diagnostic) {
            return try lowerPredicate(p, in: className).locating(p.range)
        } catch {
            diagnostics.append(error)
            return .constant(false)
        }
    }

    private mutating func lowerPredicate(_ p: SQLPredicate, in className: String?) throws(Diagnostic) -> Filter {
        switch p.kind {
        case .compare(let l, let op, let r):
            return leaf(try compare(l, op, r, in: className))

        case .isNull(let operand, let negated):
            let (e, _) = try expression(operand, in: className, allowNull: true)
            return leaf(.isNull(e), negated: negated)

        case .like(let operand, let pattern, let escape, let negated):
            return leaf(try like(operand, pattern, escape, in: className), negated: negated)

        case .inList(let operand, let items, let negated):
            let (e, type) = try expression(operand, in: className)
            var values: [Expr] = []
            for item in items {
                guard case .literal(let l) = item else {
                    throw Diagnostic(.syntax.unexpectedToken, "an IN list holds values, not columns", at: item.range)
                }
                if case .null = l.value {
                    throw Diagnostic(
                        .query.nullComparison,
                        "NULL in an IN list never matches in SQL; test it separately with '\(describe(operand)) IS NULL'",
                        at: l.range)
                }
                values.append(.literal(try coerce(l, to: type, column: operand)))
            }
            return leaf(.inCollection(e, .list(values), []), negated: negated)

        case .inSubquery(let operand, let sub, let negated):
            guard case .path(let path) = operand else {
                throw Diagnostic(
                    .syntax.unexpectedToken,
                    "the left side of IN (subquery) must be a column", at: operand.range)
            }
            let (key, _) = try resolver.resolve(path, in: className)
            let (table, inner, selected) = try subquery(sub)
            return leaf(.select(key, Query(className: table, predicate: inner), innerKey: selected), negated: negated)

        case .between(let operand, let lower, let upper, let negated):
            let (e, type) = try expression(operand, in: className)
            let lo = try bound(lower, of: operand, type: type, in: className)
            let hi = try bound(upper, of: operand, type: type, in: className)
            return leaf(.between(e, lower: lo, upper: hi), negated: negated)

        case .distance(let d):
            return leaf(.geo(try distance(d, in: className)))

        case .within(let w):
            let key = try geoKey(w.column, in: className)
            guard case .string(let wkt) = w.geometry.value, case .bool(let expected) = w.expected.value else {
                throw Diagnostic(
                    .geo.withinComparison,
                    "Within(column, 'POLYGON((…))') is compared with = TRUE or = FALSE", at: p.range)
            }
            let ring = try WKTPolygon.parse(wkt, base: w.geometry.range.offset + 1)
            parameters?.note(w.geometry.range, .polygon)
            return leaf(.geo(.withinPolygon(key, ring)), negated: !expected)

        case .inverted(let parent, let relation, let inner):
            return leaf(try inverted(parent, relation, inner, target: className))
        }
    }

    private func leaf(_ c: Condition, negated: Bool = false) -> Filter {
        .leaf(Leaf(c, negated: negated, semantics: .sql))
    }

    // MARK: - Comparisons

    private mutating func compare(
        _ l: SQLScalar, _ op: SQLOperator, _ r: SQLScalar,
        in className: String?
    ) throws(Diagnostic) -> Condition {
        let (le, lt) = try expression(l, in: className)
        let (re, rt) = try expression(r, in: className)
        if op.spelling.isDateKeyword {
            return .compare(
                try dateOperand(l, le, lt, op), op.spelling.comparison,
                try dateOperand(r, re, rt, op), [])
        }
        // A literal takes the type of the column on the other side.
        let left = try literalSide(l, le, against: r, rt)
        let right = try literalSide(r, re, against: l, lt)
        return .compare(left, op.spelling.comparison, right, [])
    }

    private func literalSide(
        _ s: SQLScalar, _ e: Expr, against other: SQLScalar,
        _ otherType: FieldType?
    ) throws(Diagnostic) -> Expr {
        guard case .literal(let l) = s, case .path = other else { return e }
        return .literal(try coerce(l, to: otherType, column: other))
    }

    /// After a date keyword: literals must be dates, columns must be date columns (when known).
    private func dateOperand(_ s: SQLScalar, _ e: Expr, _ type: FieldType?, _ op: SQLOperator) throws(Diagnostic)
        -> Expr
    {
        switch s {
        case .literal(let l):
            return .literal(try date(l, context: "'\(op.spelling.rawValue)' compares dates"))
        case .path:
            if let t = scalarType(type), t != .date, t != .mixed {
                throw Diagnostic(
                    .type.mismatch,
                    "'\(op.spelling.rawValue)' compares dates, but '\(describe(s))' is a \(t) column",
                    at: s.range)
            }
            return e
        }
    }

    private mutating func bound(
        _ b: SQLScalar, of operand: SQLScalar, type: FieldType?,
        in className: String?
    ) throws(Diagnostic) -> Expr {
        let (e, _) = try expression(b, in: className)
        return try literalSide(b, e, against: operand, type)
    }

    // MARK: - LIKE

    private mutating func like(
        _ operand: SQLScalar, _ pattern: SQLLiteral, _ escape: SQLLiteral?,
        in className: String?
    ) throws(Diagnostic) -> Condition {
        let (e, type) = try expression(operand, in: className)
        switch operand {
        case .path:
            if let t = scalarType(type), t != .string, t != .mixed {
                throw Diagnostic(
                    .type.mismatch, "LIKE matches strings, but '\(describe(operand))' is a \(t) column",
                    at: operand.range)
            }
        case .literal(let l):
            guard case .string = l.value else {
                throw Diagnostic(.type.mismatch, "LIKE matches strings, not \(kind(of: l))", at: l.range)
            }
        }
        guard case .string(let text) = pattern.value else {
            throw Diagnostic(.type.mismatch, "LIKE needs a string pattern, not \(kind(of: pattern))", at: pattern.range)
        }
        var escapeCharacter: Character?
        if let escape, case .string(let escapeText) = escape.value {
            guard let c = LikePattern.escapeCharacter(escapeText) else {
                throw Diagnostic(
                    .like.invalidEscape,
                    "ESCAPE takes exactly one character, not \(escapeText.count)", at: escape.range)
            }
            escapeCharacter = c
        }
        // With an ESCAPE, whether the pattern is valid depends on its text: not a parameter.
        parameters?.note(pattern.range, escapeCharacter == nil ? .plain : nil)
        if LikePattern.endsWithLoneEscape(text, escape: escapeCharacter), let c = escapeCharacter {
            // The escape character is the pattern's last; in the source it sits before the quote.
            let written = c == "'" ? 2 : String(c).utf8.count
            throw Diagnostic(
                .like.trailingEscape,
                "the pattern ends with the escape character '\(c)', which must be followed by the character it escapes (%, _ or '\(c)')",
                at: SourceRange(offset: pattern.range.end - 1 - written, length: written))
        }
        return .string(e, .like(.sql(escape: escapeCharacter)), .literal(.string(text)), .caseInsensitive)
    }

    // MARK: - Subqueries and inverted relations

    private mutating func enterSubquery(_ table: SQLName) throws(Diagnostic) {
        subqueries += 1
        if subqueries > limits.maxSubqueries {
            throw Diagnostic(
                .limit.subqueries,
                "more than \(limits.maxSubqueries) subqueries in one query (Limits.maxSubqueries)",
                at: table.range)
        }
        subqueryDepth += 1
        if subqueryDepth > limits.maxSubqueryDepth {
            subqueryDepth -= 1
            throw Diagnostic(
                .limit.subqueryDepth,
                "subqueries nest deeper than \(limits.maxSubqueryDepth) levels (Limits.maxSubqueryDepth)",
                at: table.range)
        }
    }

    /// `Table[where].path`: the class, the inner predicate and the selected key.
    private mutating func subquery(_ sub: SQLSubquery) throws(Diagnostic) -> (String, Filter, FieldPath) {
        try enterSubquery(sub.table)
        defer { subqueryDepth -= 1 }
        let table = try resolver.resolveClass(sub.table)
        let inner = sub.condition.map { lower($0, in: table) } ?? .constant(true)
        let (selected, _) = try resolver.resolve(sub.selected, in: table)
        return (table, inner, selected)
    }

    /// `Parent[relation].column <test>` on class `target`: the objects listed in `relation` of
    /// some Parent whose column passes the test.
    private mutating func inverted(
        _ parent: SQLName, _ relation: SQLName, _ test: SQLPredicate,
        target: String?
    ) throws(Diagnostic) -> Condition {
        try enterSubquery(parent)
        defer { subqueryDepth -= 1 }
        let parentClass = try resolver.resolveClass(parent)
        let relationPath = SQLPath(components: [relation], range: relation.range)
        let (relationKey, relationType) = try resolver.resolve(relationPath, in: parentClass)
        if resolver.schema != nil {
            switch relationType {
            case .pointer(let pointed)?, .relation(let pointed)?, .array(of: .pointer(let pointed)?)?:
                if let target, pointed != target {
                    throw Diagnostic(
                        .query.relationTargetMismatch,
                        "\(parentClass).\(relationKey) points to \(pointed), not to \(target), the class being queried",
                        at: relation.range)
                }
            case nil, .mixed?, .array(of: nil)?:
                break
            case let t?:
                throw Diagnostic(
                    .query.notARelation,
                    "\(parentClass).\(relationKey) is a \(t) column; Parent[relation] needs a relation column",
                    at: relation.range)
            }
        }
        let inner = lower(test, in: parentClass)
        return .select(
            FieldPath("objectId"), Query(className: parentClass, predicate: inner),
            innerKey: relationKey.appending("objectId"))
    }

    // MARK: - Geo

    private func distance(_ d: SQLDistance, in className: String?) throws(Diagnostic) -> GeoCondition {
        let lat = try coordinate(d.latitude, .latitude, what: "latitude")
        let lon = try coordinate(d.longitude, .longitude, what: "longitude")
        let key = try distanceKey(d.latitudeColumn, d.longitudeColumn, in: className)
        guard let unit = SQLUnits.unit(named: d.unit.text), let amount = number(d.amount) else {
            throw Diagnostic(
                .geo.unknownUnit, "unknown unit '\(d.unit.text)'; the units are \(SQLUnits.list)",
                at: d.unit.range)
        }
        parameters?.note(d.amount.range, .number)
        return .distance(
            key, from: GeoPoint(latitude: lat, longitude: lon), d.op.spelling.comparison,
            Distance(amount, unit))
    }

    private func coordinate(_ l: SQLLiteral, _ use: SQLParameterUse, what: String) throws(Diagnostic) -> Double {
        let limit = use.coordinateBound ?? .infinity
        guard let v = number(l), (-limit...limit).contains(v) else {
            throw Diagnostic(
                .geo.invalidCoordinate,
                "the \(what) of the center must be between -\(Int(limit)) and \(Int(limit))", at: l.range)
        }
        parameters?.note(l.range, use)
        return v
    }

    /// `key.latitude` and `key.longitude` must name the same GeoPoint column.
    private func distanceKey(_ latPath: SQLPath, _ lonPath: SQLPath, in className: String?) throws(Diagnostic)
        -> FieldPath
    {
        func split(_ p: SQLPath, _ axis: String) throws(Diagnostic) -> SQLPath {
            guard p.components.count >= 2,
                Keyword.equalsIgnoringCase(p.components[p.components.count - 1].text, axis)
            else {
                throw Diagnostic(
                    .geo.distanceArguments,
                    "expected a GeoPoint column's \(axis), as in coordinates.\(axis)", at: p.range)
            }
            let prefix = Array(p.components.dropLast())
            let end = prefix[prefix.count - 1].range.end
            return SQLPath(components: prefix, range: SourceRange(offset: p.range.offset, length: end - p.range.offset))
        }
        let latKey = try geoKey(try split(latPath, "latitude"), in: className)
        let lonKey = try geoKey(try split(lonPath, "longitude"), in: className)
        guard latKey == lonKey else {
            throw Diagnostic(
                .geo.distanceKeyMismatch,
                "the latitude comes from '\(latKey)' but the longitude from '\(lonKey)'; both must come from the same GeoPoint column",
                at: lonPath.range)
        }
        return latKey
    }

    /// A column that must hold a GeoPoint (when the schema knows its type).
    private func geoKey(_ p: SQLPath, in className: String?) throws(Diagnostic) -> FieldPath {
        let (key, type) = try resolver.resolve(p, in: className)
        if let t = scalarType(type), t != .geoPoint, t != .mixed {
            throw Diagnostic(.type.mismatch, "'\(key)' is a \(t) column, not a GeoPoint", at: p.range)
        }
        return key
    }

    // MARK: - Operands and literals

    /// The IR of an operand and the type of the column it reaches (nil for literals / unknown).
    private func expression(
        _ s: SQLScalar, in className: String?,
        allowNull: Bool = false
    ) throws(Diagnostic) -> (Expr, FieldType?) {
        switch s {
        case .path(let p):
            let (key, type) = try resolver.resolve(p, in: className)
            return (.key(key), type)
        case .literal(let l):
            if case .null = l.value, !allowNull {
                throw Diagnostic(
                    .query.nullComparison,
                    "a comparison with NULL is never true in SQL; write 'IS NULL' or 'IS NOT NULL'",
                    at: l.range)
            }
            return (.literal(plain(l)), nil)
        }
    }

    private func plain(_ l: SQLLiteral) -> Value {
        parameters?.note(l.range, .plain)
        switch l.value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        }
    }

    /// The literal as a value for a column of `type` (converting date strings and epoch ms).
    private func coerce(_ l: SQLLiteral, to type: FieldType?, column: SQLScalar) throws(Diagnostic) -> Value {
        guard let t = scalarType(type) else { return plain(l) }
        let ok: Bool
        switch (t, l.value) {
        case (.date, _): return try date(l, context: "'\(describe(column))' is a date column")
        case (.number, .int), (.number, .double), (.string, .string), (.bool, .bool): ok = true
        case (.number, _), (.string, _), (.bool, _): ok = false
        default: ok = true
        }
        guard ok else {
            throw Diagnostic(
                .type.mismatch, "'\(describe(column))' is a \(t) column but \(text(l)) is \(kind(of: l))",
                at: l.range)
        }
        return plain(l)
    }

    /// A date literal: a Backendless date string or epoch milliseconds.
    private func date(_ l: SQLLiteral, context: @autoclosure () -> String) throws(Diagnostic) -> Value {
        parameters?.note(l.range, nil)
        switch l.value {
        case .string(let s):
            guard let ms = BackendlessDate.parse(s) else {
                throw Diagnostic(
                    .date.unparseable,
                    "'\(s)' is not a date in any accepted form (epoch milliseconds or a string such as '23-Mar-2015', '03/23/2015' or '2015-03-23T14:30:15.250Z')",
                    at: l.range,
                    notes: [
                        "accepted forms (java.text.SimpleDateFormat letters; zone-less is UTC): "
                            + BackendlessDate.acceptedForms.joined(separator: " | ")
                    ])
            }
            parameters?.note(l.range, .date)
            return .date(ms)
        case .int(let ms):
            parameters?.note(l.range, .date)
            return .date(ms)
        case .double(let d):
            guard d.rounded() == d, let ms = Int64(exactly: d) else {
                throw Diagnostic(
                    .type.mismatch, "a date as a number is whole epoch milliseconds, not \(d)", at: l.range)
            }
            return .date(ms)
        case .bool, .null:
            throw Diagnostic(
                .type.mismatch,
                "\(context()): expected a date string or epoch milliseconds, not \(kind(of: l))", at: l.range)
        }
    }

    private func number(_ l: SQLLiteral) -> Double? {
        switch l.value {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The type a single value of the column has (array element types for arrays).
    private func scalarType(_ t: FieldType?) -> FieldType? {
        switch t {
        case .array(let element)?: return element.flatMap { scalarType($0) }
        case .relation(let c)?: return .pointer(to: c)
        default: return t
        }
    }

    private func kind(of l: SQLLiteral) -> String {
        switch l.value {
        case .null: return "NULL"
        case .bool: return "a boolean"
        case .int, .double: return "a number"
        case .string: return "a string"
        }
    }

    private func text(_ l: SQLLiteral) -> String {
        switch l.value {
        case .null: return "NULL"
        case .bool(let b): return b ? "TRUE" : "FALSE"
        case .int(let i): return String(i)
        case .double(let d): return NumberText.double(d)
        case .string(let s): return "'\(s)'"
        }
    }

    private func describe(_ s: SQLScalar) -> String {
        switch s {
        case .path(let p): return p.components.map(\.text).joined(separator: ".")
        case .literal(let l): return text(l)
        }
    }
}
