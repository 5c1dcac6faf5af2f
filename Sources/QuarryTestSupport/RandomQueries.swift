import QuarryCore

import QuarryEngine

/// Random predicates and queries over `RandomData`'s classes, across the three leaf semantics.
extension RandomData {
    public mutating func semantics() -> LeafSemantics { pick(LeafSemantics.allCases) }

    public mutating func literal() -> Value {
        switch int(10) {
        case 0, 1: return .int(pick(Self.ints))
        case 2: return .double(pick(Self.doubles))
        case 3, 4, 5: return .string(pick(Self.strings))
        case 6: return .date(pick(Self.dates))
        case 7: return .bool(chance(50))
        case 8: return .null
        default:
            // Parse accepts a bare objectId against a pointer; some name no loaded object.
            return chance(20) ? .string("o\(int(6))") : .pointer(Pointer(className: "Other", objectId: "o\(int(9))"))
        }
    }

    public mutating func options() -> StringOptions {
        pick([[], [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]])
    }

    public mutating func itemKey() -> FieldPath {
        pick([
            "i", "d", "s", "dt", "b", "g", "tags", "m", "ptr", "ptr.name", "ptr.n", "rel", "rel.name", "nothing",
            "objectId", "ptr.owner.s", "labels", "nums", "labels", "nums", "ptr.objectId", "rel.objectId", "rel.0",
            "docs", "docs.b", "docs.0", "docs.0.b", "tags.0", "docs.b.c",
        ])
    }

    public mutating func condition(_ className: String, depth: Int) -> Condition {
        let key: FieldPath = className == "Item" ? itemKey() : pick(["name", "n", "owner", "owner.i", "owner.s"])
        switch int(14) {
        case 0, 1, 2:
            return .compare(.key(key), pick(ComparisonOperator.allCases), .literal(literal()), options())
        case 3:
            return .compare(.literal(literal()), pick(ComparisonOperator.allCases), .key(key), [])
        case 4:
            return .between(.key(key), lower: .literal(literal()), upper: .literal(literal()))
        case 5:
            return .inCollection(.key(key), .list((0..<int(4)).map { _ in .literal(literal()) }), options())
        case 6:
            return .isNull(.key(key))
        case 7:
            let op: StringOperator = pick([
                .beginsWith, .endsWith, .contains, .like(.sql(escape: nil)), .like(.glob),
                .matches(RegexOptions(wholeString: chance(50))),
            ])
            let pattern = pick(["a", "J", "jo", "", "%", "a%", "%b", "%e%", "J_e", "j*", "^[aA]", "é", "ß", "K%", "k"])
            return .string(.key(key), op, .literal(.string(pattern)), options())
        case 8:
            let g: GeoCondition = pick([
                .near("g", Self.points[0], maxDistance: Distance(300, .kilometers)),
                .withinBox(
                    "g", southwest: GeoPoint(latitude: 29, longitude: -98),
                    northeast: GeoPoint(latitude: 31, longitude: -95)),
                .withinCircle("g", center: Self.points[1], radius: Distance(0.1, .radians)),
                .distance("g", from: Self.points[0], .lt, Distance(250, .miles)),
                .withinPolygon(
                    "g",
                    [
                        GeoPoint(latitude: 28, longitude: -99), GeoPoint(latitude: 32, longitude: -99),
                        GeoPoint(latitude: 32, longitude: -94),
                    ]),
            ])
            return .geo(g)
        case 9 where depth > 0:
            var inner = Query(className: "Other", predicate: predicate("Other", depth: depth - 1))
            if chance(50) { inner.limit = int(4) }
            if chance(30) { inner.order = [.key("n", chance(50) ? .ascending : .descending)] }
            if chance(30) { inner.profile = .parse }
            return .inQuery(pick(["ptr", "rel", "s"]), inner)
        case 10 where depth > 0:
            var inner = Query(className: "Other", predicate: predicate("Other", depth: depth - 1))
            if chance(40) { inner.limit = int(4) }
            return .select(pick(["s", "i", "tags", "ptr"]), inner, innerKey: pick(["name", "n", "owner"]))
        case 11:
            return .relatedTo(Pointer(className: "Item", objectId: "i\(int(8))"), key: "rel")
        case 12:
            switch int(4) {
            case 0: return .text(key, TextSearch(terms: pick(["joe", "a b", "-zed", "é"])))
            case 1: return .arraySize(.key(key), int(4))
            case 2: return .containedBy(.key(key), .list((0..<int(4)).map { _ in .literal(literal()) }))
            default: return .containsAll(.key(key), .list((0..<(1 + int(2))).map { _ in .literal(literal()) }))
            }
        default:
            return .quantified(
                pick([.any, .all, .none]), .key("tags"), variable: "x",
                .leaf(.compare(.variable("x"), .eq, .literal(.string(pick(Self.strings))), []), semantics()))
        }
    }

    public mutating func predicate(_ className: String, depth: Int) -> Filter {
        let pickKind = int(10)
        if depth == 0 || pickKind < 5 {
            return .leaf(condition(className, depth: depth), negated: chance(30), semantics())
        }
        let children = (0..<(2 + int(3))).map { _ in predicate(className, depth: depth - 1) }
        switch pickKind {
        case 5, 6: return .and(children)
        case 7, 8: return .or(children)
        default: return chance(50) ? .not(children[0]) : .constant(chance(50))
        }
    }

    public mutating func query(depth: Int) -> Query {
        var q = Query(className: "Item", predicate: predicate("Item", depth: depth))
        if chance(30) {
            q.order = (0..<(1 + int(2))).map { _ in
                chance(15)
                    ? .distance("g", from: pick(Self.points), chance(50) ? .ascending : .descending)
                    : .key(pick(["i", "d", "s", "dt", "b", "m", "tags", "ptr"]), chance(50) ? .ascending : .descending)
            }
        }
        if chance(30) { q.limit = int(6) }
        if chance(20) { q.skip = int(4) }
        if chance(10) { q.count = true }
        if chance(15) { q.profile = pick(Profile.allCases) }
        return q
    }
}
