import QuarryCore

/// A small seeded generator (SplitMix64) so that failures reproduce.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }
}

/// Random IR in the part of the IR that SQL where clauses express, in the canonical shape the
/// parser produces (AND/OR with at least two operands, no `.not`, `.sql` leaves).
///
/// Untyped mode uses names that stress quoting; date literals then only appear in ordered
/// comparisons with a column (printed with the date keywords). Typed mode follows `schema`:
/// every literal has its column's type, so dates may stand anywhere.
struct RandomIR {
    var random: SeededRandom
    let typed: Bool

    init(seed: UInt64, typed: Bool) {
        random = SeededRandom(seed: seed)
        self.typed = typed
    }

    /// The typed mode's class: one column of each type, a pointer and a relation to itself.
    static let schema = TestSchemaForRoundTrip()

    static let names = ["name", "age", "a", "b1", "_x", "after", "before", "at", "distance", "Within", "escape",
                        "m", "mi", "weird name", "and", "NULL", "true", "In", "müşteri", "a`b", "1abc", "x y",
                        "ıs", "OR", "objectId", "Ñ"]
    static let classes = ["T", "Order Item", "PhoneBook", "select", "not", "Büro"]
    static let stringPieces = ["a", "b", "'", "''", "%", "_", "!", "\\", " ", "\u{00A0}", "\n", "é", "e\u{301}",
                               "'\u{301}", "☃", "𝄞", "`", "\"", "AND", "--", "x"]

    mutating func predicate(depth: Int = 0) -> Filter {
        if depth < 3, random.chance(0.45) {
            let items = (0..<random.int(2...4)).map { _ in predicate(depth: depth + 1) }
            return random.chance(0.5) ? .and(items) : .or(items)
        }
        if random.chance(0.03) { return .constant(random.chance(0.5)) }
        return .leaf(Leaf(condition(depth: depth), negated: random.chance(0.3), semantics: .sql))
    }

    // MARK: - Leaves

    mutating func condition(depth: Int) -> Condition {
        typed ? typedCondition(depth: depth) : untypedCondition(depth: depth)
    }

    mutating func untypedCondition(depth: Int) -> Condition {
        switch random.int(0...10) {
        case 0, 1:
            let op = random.pick(ComparisonOperator.allCases)
            switch random.int(0...3) {
            case 0: return .compare(literal(), op, .key(path()), [])
            case 1: return .compare(.key(path()), op, .key(path()), [])
            default: return .compare(.key(path()), op, literal(), [])
            }
        case 2:
            let op = random.pick([ComparisonOperator.lt, .le, .gt, .ge])
            return random.chance(0.8) ? .compare(.key(path()), op, .literal(date()), [])
                : .compare(.literal(date()), op, .key(path()), [])
        case 3: return .isNull(.key(path()))
        case 4: return likeCondition(.key(path()))
        case 5: return .inCollection(.key(path()), .list((0..<random.int(1...4)).map { _ in literal() }), [])
        case 6: return .between(.key(path()), lower: literal(), upper: random.chance(0.2) ? .key(path()) : literal())
        case 7: return .geo(distance(path()))
        case 8: return .geo(.withinPolygon(path(), polygon()))
        default:
            guard depth < 3 else { return .isNull(.key(path())) }
            let inner: Filter = random.chance(0.3) ? .constant(true) : predicate(depth: depth + 1)
            return .select(path(), Query(className: random.pick(Self.classes), predicate: inner), innerKey: path())
        }
    }

    mutating func typedCondition(depth: Int) -> Condition {
        let prefix = random.chance(0.2) ? ["p"] : (random.chance(0.1) ? ["r"] : [])
        func k(_ field: String) -> FieldPath { FieldPath(prefix + [field]) }
        switch random.int(0...9) {
        case 0:
            let (field, value) = typedValue()
            let op = field == "b" ? random.pick([ComparisonOperator.eq, .ne]) : random.pick(ComparisonOperator.allCases)
            return random.chance(0.2) ? .compare(.literal(value), op, .key(k(field)), [])
                : .compare(.key(k(field)), op, .literal(value), [])
        case 1: return .isNull(.key(k(random.pick(["d", "n", "s", "b", "g", "p"]))))
        case 2: return likeCondition(.key(k("s")))
        case 3:
            let field = random.pick(["d", "n", "s", "b"])
            let items = (0..<random.int(1...4)).map { _ in Expr.literal(typedValue(field)) }
            return .inCollection(.key(k(field)), .list(items), [])
        case 4:
            let field = random.pick(["d", "n", "s"])
            return .between(.key(k(field)), lower: .literal(typedValue(field)), upper: .literal(typedValue(field)))
        case 5: return .geo(distance(k("g")))
        case 6: return .geo(.withinPolygon(k("g"), polygon()))
        case 7: return .compare(.key(k("d")), random.pick(ComparisonOperator.allCases), .key(FieldPath("d")), [])
        default:
            guard depth < 3 else { return .isNull(.key(k("n"))) }
            let inner: Filter = random.chance(0.3) ? .constant(true) : predicate(depth: depth + 1)
            let (outer, innerKey) = random.pick([(FieldPath("objectId"), FieldPath("p.objectId")),
                                                 (FieldPath("n"), FieldPath("n")), (FieldPath("s"), FieldPath("p.s"))])
            return .select(outer, Query(className: "T", predicate: inner), innerKey: innerKey)
        }
    }

    mutating func typedValue() -> (String, Value) {
        let field = random.pick(["d", "n", "s", "b"])
        return (field, typedValue(field))
    }

    mutating func typedValue(_ field: String) -> Value {
        switch field {
        case "d": return date()
        case "n": return random.chance(0.5) ? .int(integer()) : .double(double())
        case "s": return .string(string())
        default: return .bool(random.chance(0.5))
        }
    }

    mutating func likeCondition(_ operand: Expr) -> Condition {
        let escape: Character? = random.chance(0.5) ? random.pick(["!", "\\", "'", "%", "é", "`"]) : nil
        var pattern = string()
        if let e = escape, random.chance(0.5) { pattern += "\(e)\(random.pick(["%", "_", String(e)]))" }
        // A pattern may not end with a lone escape character: double it.
        if let e = escape, endsWithLoneEscape(pattern, e) { pattern.append(e) }
        return .string(operand, .like(.sql(escape: escape)), .literal(.string(pattern)), .caseInsensitive)
    }

    private func endsWithLoneEscape(_ pattern: String, _ escape: Character) -> Bool {
        var escaping = false
        for ch in pattern { escaping = escaping ? false : ch == escape }
        return escaping
    }

    mutating func distance(_ key: FieldPath) -> GeoCondition {
        let units: [DistanceUnit] = [.feet, .yards, .miles, .kilometers, .meters]
        return .distance(key, from: point(), random.pick([.lt, .le, .gt, .ge, .eq]),
                         Distance(random.chance(0.5) ? Double(random.int(0...1000)) : abs(double()), random.pick(units)))
    }

    mutating func polygon() -> [GeoPoint] { (0..<random.int(3...6)).map { _ in point() } }

    mutating func point() -> GeoPoint {
        func coordinate(_ limit: Double) -> Double {
            switch random.int(0...3) {
            case 0: return Double(random.int(-Int(limit)...Int(limit)))
            case 1: return -0.0
            default: return Double.random(in: -limit...limit, using: &random)
            }
        }
        return GeoPoint(latitude: coordinate(90), longitude: coordinate(180))
    }

    // MARK: - Names and literals

    mutating func path() -> FieldPath {
        FieldPath((0..<random.int(1...3)).map { _ in random.pick(Self.names) })
    }

    mutating func literal() -> Expr {
        switch random.int(0...4) {
        case 0: return .literal(.int(integer()))
        case 1: return .literal(.double(double()))
        case 2: return .literal(.bool(random.chance(0.5)))
        default: return .literal(.string(string()))
        }
    }

    mutating func integer() -> Int64 {
        switch random.int(0...4) {
        case 0: return random.pick([Int64.min, Int64.max, 0, -1, 1])
        case 1: return Int64.random(in: Int64.min...Int64.max, using: &random)
        default: return Int64(random.int(-1000...1000))
        }
    }

    mutating func double() -> Double {
        switch random.int(0...5) {
        case 0: return random.pick([0.0, -0.0, 0.5, -2.5, 1e-300, 5e-324, 1.7976931348623157e308, 1e16, 123456789.125])
        case 1:
            // Any finite double: exponent bits below all-ones, either sign.
            let magnitude = Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
            return random.chance(0.5) ? -magnitude : magnitude
        case 2: return Double(random.int(-100...100))
        default: return Double.random(in: -1e6...1e6, using: &random)
        }
    }

    mutating func string() -> String {
        (0..<random.int(0...6)).map { _ in random.pick(Self.stringPieces) }.joined()
    }

    mutating func date() -> Value {
        switch random.int(0...3) {
        case 0: return .date(random.pick([0, -1, 1_427_068_800_000, -62_135_596_800_000, 253_402_300_799_999, Int64.max, Int64.min]))
        default: return .date(Int64.random(in: -62_135_596_800_000 * 2...253_402_300_799_999, using: &random))
        }
    }
}

/// The typed round trip's class `T`.
struct TestSchemaForRoundTrip: Schema {
    let fields: [String: FieldType] = ["objectId": .string, "d": .date, "n": .number, "s": .string, "b": .bool,
                                       "g": .geoPoint, "p": .pointer(to: "T"), "r": .relation(to: "T")]
    func hasClass(_ className: String) -> Bool { className == "T" }
    func resolveField(_ name: String, in className: String) -> String? { fields[name] != nil ? name : nil }
    func fieldType(_ field: String, in className: String) -> FieldType? { fields[field] }
}
