import QuarryCore

/// IR → canonical where-clause text: uppercase keywords, parentheses only where precedence (or
/// the IR's own nesting of AND in AND, OR in OR) needs them, strings re-escaped, numbers and
/// dates spelled so they read back to the same value.
struct SQLPrinter {
    let limits: Limits
    private var depth = 0

    init(limits: Limits) { self.limits = limits }

    private enum Parent { case none, and, or }

    mutating func print(_ p: Filter) throws(Diagnostic) -> String {
        var out = ""
        try write(p, parent: .none, into: &out)
        return out
    }

    private mutating func write(_ p: Filter, parent: Parent, into out: inout String) throws(Diagnostic) {
        depth += 1
        defer { depth -= 1 }
        if depth > limits.maxNestingDepth {
            throw Diagnostic(
                .limit.nesting,
                "the condition nests deeper than \(limits.maxNestingDepth) levels (Limits.maxNestingDepth)")
        }
        switch p {
        case .constant(let b):
            out += b ? "TRUE" : "FALSE"
        case .and(let items):
            try junction(
                items, keyword: "AND", empty: "TRUE", me: .and, parenthesizedIn: [.and], parent: parent, into: &out)
        case .or(let items):
            try junction(
                items, keyword: "OR", empty: "FALSE", me: .or, parenthesizedIn: [.and, .or], parent: parent, into: &out)
        case .not:
            throw inexpressible(
                "a logical NOT over a condition (SQL's NOT is three-valued; it only exists here pushed into the leaves)"
            )
        case .leaf(let leaf):
            try write(leaf, into: &out)
        }
    }

    private mutating func junction(
        _ items: [Filter], keyword: String, empty: String, me: Parent,
        parenthesizedIn: [Parent], parent: Parent,
        into out: inout String
    ) throws(Diagnostic) {
        switch items.count {
        case 0: out += empty
        case 1: try write(items[0], parent: parent, into: &out)
        default:
            let parens = parenthesizedIn.contains(parent)
            if parens { out += "(" }
            for (i, item) in items.enumerated() {
                if i > 0 { out += " \(keyword) " }
                try write(item, parent: me, into: &out)
            }
            if parens { out += ")" }
        }
    }

    // MARK: - Leaves

    private mutating func write(_ leaf: Leaf, into out: inout String) throws(Diagnostic) {
        switch leaf.semantics {
        case .sql: break
        case .predicate:
            throw inexpressible("a condition with NSPredicate semantics (nil is a value, no three-valued logic)")
        case .document: throw inexpressible("a condition with Parse/MongoDB semantics ($ne matches a missing field)")
        }
        let negated = leaf.negated
        switch leaf.condition {
        case .compare(let l, let op, let r, let options):
            guard options.isEmpty else { throw inexpressible(describe(options) + " comparison") }
            let text = try comparison(l, op, r)
            out += negated ? "NOT (\(text))" : text

        case .between(let e, let lower, let upper):
            out +=
                try operand(e) + (negated ? " NOT BETWEEN " : " BETWEEN ") + operand(lower) + " AND " + operand(upper)

        case .inCollection(let e, let collection, let options):
            guard options.isEmpty else { throw inexpressible(describe(options) + " IN") }
            guard case .list(let items) = collection else {
                throw inexpressible("IN over a column or an array value (SQL's IN takes a list of values)")
            }
            guard !items.isEmpty else { throw inexpressible("IN with an empty list") }
            var values: [String] = []
            for item in items {
                guard case .literal(let v) = item else {
                    throw inexpressible("an IN list element that is not a literal")
                }
                if case .null = v { throw inexpressible("NULL in an IN list (it never matches in SQL)") }
                values.append(try literal(v))
            }
            out += try operand(e) + (negated ? " NOT IN (" : " IN (") + values.joined(separator: ", ") + ")"

        case .isNull(let e):
            out += try operand(e, allowNull: true) + (negated ? " IS NOT NULL" : " IS NULL")

        case .string(let e, let op, let pattern, let options):
            out += try like(e, op, pattern, options, negated: negated)

        case .geo(let g):
            try write(g, negated: negated, into: &out)

        case .select(let key, let query, let innerKey):
            out += try path(key) + (negated ? " NOT IN (" : " IN (")
            try subquery(query, innerKey, into: &out)
            out += ")"

        case .containsAll: throw inexpressible("containsAll (Parse $all)")
        case .containedBy: throw inexpressible("containedBy (Parse $containedBy)")
        case .arraySize: throw inexpressible("an array size test")
        case .quantified(let q, _, _, _): throw inexpressible("the quantifier \(q.rawValue.uppercased())")
        case .inQuery: throw inexpressible("inQuery (Parse $inQuery over pointers)")
        case .relatedTo: throw inexpressible("relatedTo (Parse $relatedTo)")
        case .text: throw inexpressible("a full-text search")
        }
    }

    private func comparison(_ l: Expr, _ op: ComparisonOperator, _ r: Expr) throws(Diagnostic) -> String {
        // Ordered comparisons with a date read back as dates even without a schema when
        // spelled with the date keywords.
        if let keyword = Self.dateKeyword(op), isDateOperand(l), isDateOperand(r),
            isDateLiteral(l) || isDateLiteral(r)
        {
            return try operand(l) + " " + keyword + " " + operand(r)
        }
        return try operand(l) + " " + Self.symbol(op) + " " + operand(r)
    }

    private static func symbol(_ op: ComparisonOperator) -> String {
        switch op {
        case .eq: return "="
        case .ne: return "!="
        case .lt: return "<"
        case .le: return "<="
        case .gt: return ">"
        case .ge: return ">="
        }
    }

    private static func dateKeyword(_ op: ComparisonOperator) -> String? {
        switch op {
        case .gt: return "after"
        case .lt: return "before"
        case .ge: return "at or after"
        case .le: return "at or before"
        case .eq, .ne: return nil
        }
    }

    private func isDateLiteral(_ e: Expr) -> Bool {
        if case .literal(.date) = e { return true }
        return false
    }

    private func isDateOperand(_ e: Expr) -> Bool {
        switch e {
        case .key, .literal(.date): return true
        default: return false
        }
    }

    private func like(
        _ e: Expr, _ op: StringOperator, _ pattern: Expr, _ options: StringOptions,
        negated: Bool
    ) throws(Diagnostic) -> String {
        let escape: Character?
        switch op {
        case .like(.sql(let e)): escape = e
        case .like(.glob): throw inexpressible("a glob LIKE pattern (NSPredicate * and ?)")
        case .beginsWith: throw inexpressible("BEGINSWITH")
        case .endsWith: throw inexpressible("ENDSWITH")
        case .contains: throw inexpressible("CONTAINS")
        case .matches: throw inexpressible("a regular expression match")
        }
        guard options == .caseInsensitive else {
            throw inexpressible(
                options.contains(.caseInsensitive)
                    ? "a diacritic-insensitive LIKE" : "a case-sensitive LIKE (SQL's LIKE ignores case)")
        }
        guard case .literal(.string(let text)) = pattern else {
            throw inexpressible("a LIKE pattern that is not a string literal")
        }
        if case .literal(let v) = e, case .string = v {
        } else if case .literal = e {
            throw inexpressible("LIKE on a literal that is not a string")
        }
        if LikePattern.endsWithLoneEscape(text, escape: escape) {
            throw inexpressible("a LIKE pattern that ends with its escape character")
        }
        var out = try operand(e) + (negated ? " NOT LIKE " : " LIKE ") + Self.quote(text)
        if let escape { out += " ESCAPE " + Self.quote(String(escape)) }
        return out
    }

    private mutating func write(_ g: GeoCondition, negated: Bool, into out: inout String) throws(Diagnostic) {
        switch g {
        case .distance(let key, let from, let op, let d):
            guard op != .ne else { throw inexpressible("distance(…) != (SQL allows <, >, =, >=, <=)") }
            guard let unit = SQLUnits.name(of: d.unit) else { throw inexpressible("a distance in radians") }
            guard (-90...90).contains(from.latitude), (-180...180).contains(from.longitude), d.value.isFinite else {
                throw inexpressible("a distance from a point outside latitude -90…90 / longitude -180…180")
            }
            let k = try path(key)
            let text =
                "distance(\(Self.coordinate(from.latitude)), \(Self.coordinate(from.longitude)), "
                + "\(k).latitude, \(k).longitude) \(Self.symbol(op)) \(unit)(\(Self.coordinate(d.value)))"
            out += negated ? "NOT (\(text))" : text
        case .withinPolygon(let key, let vertices):
            guard vertices.count >= 3,
                vertices.allSatisfy({ (-90...90).contains($0.latitude) && (-180...180).contains($0.longitude) })
            else {
                throw inexpressible(
                    "a polygon with fewer than 3 vertices or a vertex outside latitude -90…90 / longitude -180…180")
            }
            out +=
                "Within(\(try path(key)), \(Self.quote(WKTPolygon.text(vertices)))) = " + (negated ? "FALSE" : "TRUE")
        case .near: throw inexpressible("near (Parse $nearSphere)")
        case .withinBox: throw inexpressible("withinBox (Parse $within $box)")
        case .withinCircle: throw inexpressible("withinCircle (Parse $geoWithin $centerSphere)")
        case .polygonContains: throw inexpressible("polygonContains (Parse $geoIntersects)")
        }
    }

    private mutating func subquery(_ q: Query, _ innerKey: FieldPath, into out: inout String) throws(Diagnostic) {
        guard q.order.isEmpty, q.skip == nil, q.limit == nil, q.keys == nil, q.excludeKeys.isEmpty,
            q.includes.isEmpty, !q.count, q.profile == .exact
        else {
            throw inexpressible("a subquery with order, skip, limit, keys, includes, count or a profile")
        }
        out += try name(q.className)
        if q.predicate != .constant(true) {
            out += "["
            try write(q.predicate, parent: .none, into: &out)
            out += "]"
        }
        out += "." + (try path(innerKey))
    }

    // MARK: - Operands

    private func operand(_ e: Expr, allowNull: Bool = false) throws(Diagnostic) -> String {
        switch e {
        case .key(let k): return try path(k)
        case .literal(.null) where !allowNull:
            throw inexpressible("a comparison with NULL (never true in SQL; IS NULL tests for null)")
        case .literal(let v): return try literal(v)
        case .variable(let v): throw inexpressible("the variable $\(v)")
        case .evaluatedObject: throw inexpressible("SELF")
        case .member: throw inexpressible("a key path applied to an expression")
        case .list: throw inexpressible("a list outside IN")
        case .arithmetic: throw inexpressible("arithmetic")
        case .negate: throw inexpressible("arithmetic negation of an expression")
        case .function(let f, _): throw inexpressible("the function \(f.callName)()")
        case .aggregate(let a, _): throw inexpressible("the collection operator \(a.rawValue)")
        case .index: throw inexpressible("index access (FIRST, LAST, SIZE, [n])")
        case .subquery: throw inexpressible("SUBQUERY(…)")
        case .cast: throw inexpressible("CAST(…)")
        }
    }

    private func literal(_ v: Value) throws(Diagnostic) -> String {
        switch v {
        case .null: return "NULL"
        case .bool(let b): return b ? "TRUE" : "FALSE"
        case .int(let i): return String(i)
        case .double(let d):
            guard d.isFinite else { throw inexpressible("the number \(d)") }
            return NumberText.double(d)
        case .string(let s): return Self.quote(s)
        case .date(let ms):
            // `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` (the guide's pattern 2) when it reads back to the
            // same instant, else epoch milliseconds (years the pattern cannot spell).
            let iso = ISODate.format(ms)
            return BackendlessDate.parse(iso) == ms ? Self.quote(iso) : String(ms)
        default:
            throw inexpressible("a \(v.typeName) literal")
        }
    }

    private func path(_ k: FieldPath) throws(Diagnostic) -> String {
        var parts: [String] = []
        for c in k.components { parts.append(try name(c)) }
        return parts.joined(separator: ".")
    }

    private func name(_ n: String) throws(Diagnostic) -> String {
        if CharacterClasses.isPlainIdentifier(n) { return n }
        guard !n.isEmpty, !n.utf8.contains(UInt8(ascii: ".")) else {
            throw inexpressible("the field name '\(n)' (names cannot be empty or contain '.')")
        }
        return "`" + n.replacingAll("`", with: "``") + "`"
    }

    /// Whole numbers below 2^53 without a fraction (`mi(200)`), others in shortest form.
    private static func coordinate(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 9_007_199_254_740_992, !(d == 0 && d.sign == .minus) {
            return String(Int64(d))
        }
        return NumberText.double(d)
    }

    static func quote(_ s: String) -> String { "'" + s.replacingAll("'", with: "''") + "'" }

    private func describe(_ o: StringOptions) -> String {
        o.contains(.caseInsensitive)
            ? (o.contains(.diacriticInsensitive)
                ? "a case- and diacritic-insensitive"
                : "a case-insensitive")
            : "a diacritic-insensitive"
    }

    private func inexpressible(_ construct: String) -> Diagnostic {
        Diagnostic(.translate.inexpressible, "\(construct) cannot be written as an SQL where clause")
    }
}

extension String {
    /// Replaces every occurrence of a scalar, also one that a combining mark follows (a
    /// Character-wise replace would miss `'` + U+0301, and the lexer reads bytes).
    func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
        var out = String.UnicodeScalarView()
        for s in unicodeScalars {
            if s == target { out.append(contentsOf: replacement.unicodeScalars) } else { out.append(s) }
        }
        return String(out)
    }
}
