import QuarryCore

/// The SQL subset: the part of the IR that SQL where clauses express, in the canonical shape the
/// parser produces (`.sql` leaves, negation in the leaf).
///
/// Untyped mode uses names that stress quoting; date literals then only appear in ordered
/// comparisons with a column (printed with the date keywords). Typed mode follows `sqlSchema`:
/// every literal has its column's type, so dates may stand anywhere.
extension RandomIR {
    /// The typed mode's class: one column of each type, a pointer and a relation to itself.
    public static let sqlSchema = SQLRoundTripSchema()

    static let sqlNames = [
        "name", "age", "a", "b1", "_x", "after", "before", "at", "distance", "Within", "escape",
        "m", "mi", "weird name", "and", "NULL", "true", "In", "müşteri", "a`b", "1abc", "x y",
        "ıs", "OR", "objectId", "Ñ",
    ]
    static let sqlClasses = ["T", "Order Item", "PhoneBook", "select", "not", "Büro"]
    static let sqlStringPieces = [
        "a", "b", "'", "''", "%", "_", "!", "\\", " ", "\u{00A0}", "\n", "é", "e\u{301}",
        "'\u{301}", "☃", "𝄞", "`", "\"", "AND", "--", "x",
    ]

    // MARK: - Leaves

    mutating func sqlUntypedCondition(depth: Int) -> Condition {
        switch int(0...10) {
        case 0, 1:
            let op = pick(ComparisonOperator.allCases)
            switch int(0...3) {
            case 0: return .compare(literal(), op, .key(path()), [])
            case 1: return .compare(.key(path()), op, .key(path()), [])
            default: return .compare(.key(path()), op, literal(), [])
            }
        case 2:
            let op = pick([ComparisonOperator.lt, .le, .gt, .ge])
            return chance(0.8)
                ? .compare(.key(path()), op, .literal(date()), [])
                : .compare(.literal(date()), op, .key(path()), [])
        case 3: return .isNull(.key(path()))
        case 4: return likeCondition(.key(path()))
        case 5: return .inCollection(.key(path()), .list((0..<int(1...4)).map { _ in literal() }), [])
        case 6: return .between(.key(path()), lower: literal(), upper: chance(0.2) ? .key(path()) : literal())
        case 7: return .geo(distance(path()))
        case 8: return .geo(.withinPolygon(path(), polygon()))
        default:
            guard depth > 0 else { return .isNull(.key(path())) }
            let inner: Filter = chance(0.3) ? .constant(true) : filter(depth: depth - 1)
            return .select(path(), Query(className: pick(Self.sqlClasses), predicate: inner), innerKey: path())
        }
    }

    mutating func sqlTypedCondition(depth: Int) -> Condition {
        let prefix = chance(0.2) ? ["p"] : (chance(0.1) ? ["r"] : [])
        func k(_ field: String) -> FieldPath { FieldPath(prefix + [field]) }
        switch int(0...9) {
        case 0:
            let (field, value) = typedValue()
            let op = field == "b" ? pick([ComparisonOperator.eq, .ne]) : pick(ComparisonOperator.allCases)
            return chance(0.2)
                ? .compare(.literal(value), op, .key(k(field)), [])
                : .compare(.key(k(field)), op, .literal(value), [])
        case 1: return .isNull(.key(k(pick(["d", "n", "s", "b", "g", "p"]))))
        case 2: return likeCondition(.key(k("s")))
        case 3:
            let field = pick(["d", "n", "s", "b"])
            let items = (0..<int(1...4)).map { _ in Expr.literal(typedValue(field)) }
            return .inCollection(.key(k(field)), .list(items), [])
        case 4:
            let field = pick(["d", "n", "s"])
            return .between(.key(k(field)), lower: .literal(typedValue(field)), upper: .literal(typedValue(field)))
        case 5: return .geo(distance(k("g")))
        case 6: return .geo(.withinPolygon(k("g"), polygon()))
        case 7: return .compare(.key(k("d")), pick(ComparisonOperator.allCases), .key(FieldPath("d")), [])
        default:
            guard depth > 0 else { return .isNull(.key(k("n"))) }
            let inner: Filter = chance(0.3) ? .constant(true) : filter(depth: depth - 1)
            let (outer, innerKey) = pick([
                (FieldPath("objectId"), FieldPath("p.objectId")),
                (FieldPath("n"), FieldPath("n")), (FieldPath("s"), FieldPath("p.s")),
            ])
            return .select(outer, Query(className: "T", predicate: inner), innerKey: innerKey)
        }
    }

    private mutating func typedValue() -> (String, Value) {
        let field = pick(["d", "n", "s", "b"])
        return (field, typedValue(field))
    }

    private mutating func typedValue(_ field: String) -> Value {
        switch field {
        case "d": return date()
        case "n": return chance(0.5) ? .int(integer()) : .double(double())
        case "s": return .string(string())
        default: return .bool(chance(0.5))
        }
    }

    private mutating func likeCondition(_ operand: Expr) -> Condition {
        let escape: Character? = chance(0.5) ? pick(["!", "\\", "'", "%", "é", "`"]) : nil
        var pattern = string()
        if let e = escape, chance(0.5) { pattern += "\(e)\(pick(["%", "_", String(e)]))" }
        // A pattern may not end with a lone escape character: double it.
        if let e = escape, endsWithLoneEscape(pattern, e) { pattern.append(e) }
        return .string(operand, .like(.sql(escape: escape)), .literal(.string(pattern)), .caseInsensitive)
    }

    private func endsWithLoneEscape(_ pattern: String, _ escape: Character) -> Bool {
        var escaping = false
        for ch in pattern { escaping = escaping ? false : ch == escape }
        return escaping
    }

    private mutating func distance(_ key: FieldPath) -> GeoCondition {
        let units: [DistanceUnit] = [.feet, .yards, .miles, .kilometers, .meters]
        return .distance(
            key, from: point(), pick([.lt, .le, .gt, .ge, .eq]),
            Distance(chance(0.5) ? Double(int(0...1000)) : abs(double()), pick(units)))
    }

    private mutating func polygon() -> [GeoPoint] { (0..<int(3...6)).map { _ in point() } }

    private mutating func point() -> GeoPoint {
        func coordinate(_ limit: Double) -> Double {
            switch int(0...3) {
            case 0: return Double(int(-Int(limit)...Int(limit)))
            case 1: return -0.0
            default: return Double.random(in: -limit...limit, using: &rng)
            }
        }
        return GeoPoint(latitude: coordinate(90), longitude: coordinate(180))
    }

    // MARK: - Names and literals

    private mutating func path() -> FieldPath {
        FieldPath((0..<int(1...3)).map { _ in pick(Self.sqlNames) })
    }

    private mutating func literal() -> Expr {
        switch int(0...4) {
        case 0: return .literal(.int(integer()))
        case 1: return .literal(.double(double()))
        case 2: return .literal(.bool(chance(0.5)))
        default: return .literal(.string(string()))
        }
    }

    private mutating func integer() -> Int64 {
        switch int(0...4) {
        case 0: return pick([Int64.min, Int64.max, 0, -1, 1])
        case 1: return Int64.random(in: Int64.min...Int64.max, using: &rng)
        default: return Int64(int(-1000...1000))
        }
    }

    private mutating func double() -> Double {
        switch int(0...5) {
        case 0:
            return pick([
                0.0, -0.0, 0.5, -2.5, 1e-300, Double.leastNonzeroMagnitude, 1.7976931348623157e308, 1e16, 123456789.125,
            ])
        case 1:
            // Any finite double: exponent bits below all-ones, either sign.
            let magnitude = Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF)
            return chance(0.5) ? -magnitude : magnitude
        case 2: return Double(int(-100...100))
        default: return Double.random(in: -1e6...1e6, using: &rng)
        }
    }

    private mutating func string() -> String {
        (0..<int(0...6)).map { _ in pick(Self.sqlStringPieces) }.joined()
    }

    private mutating func date() -> Value {
        switch int(0...3) {
        case 0:
            return .date(
                pick([0, -1, 1_427_068_800_000, -62_135_596_800_000, 253_402_300_799_999, Int64.max, Int64.min]))
        default: return .date(Int64.random(in: -62_135_596_800_000 * 2...253_402_300_799_999, using: &rng))
        }
    }
}

/// The typed SQL round trip's class `T`.
public struct SQLRoundTripSchema: Schema {
    public init() {}

    public let fields: [String: FieldType] = [
        "objectId": .string, "d": .date, "n": .number, "s": .string, "b": .bool,
        "g": .geoPoint, "p": .pointer(to: "T"), "r": .relation(to: "T"),
    ]
    public func hasClass(_ className: String) -> Bool { className == "T" }
    public func resolveField(_ name: String, in className: String) -> String? { fields[name] != nil ? name : nil }
    public func fieldType(_ field: String, in className: String) -> FieldType? { fields[field] }
}
