import QuarryCore

/// The converters' subset: every leaf kind in every semantics, on the keys and constants the
/// caller gives, so that converting can be checked against the data the keys live in.
extension RandomIR {
    static let anySemanticsAustin = GeoPoint(latitude: 30.26715, longitude: -97.74306)

    mutating func anySemanticsLeaf(keys: [FieldPath], constants: [Value], semantics: [LeafSemantics]) -> Filter {
        let e = Expr.key(pick(keys))
        let op = pick([ComparisonOperator.eq, .ne, .lt, .le, .gt, .ge])
        let c: Condition
        let roll = int(0...16)
        switch roll {
        case 0, 1, 2: c = .compare(e, op, .literal(pick(constants)), [])
        case 3: c = .compare(.literal(pick(constants)), op, e, chance(0.5) ? [] : .caseInsensitive)
        case 4: c = .inCollection(e, .list((0..<int(0...2)).map { _ in .literal(pick(constants)) }), [])
        case 5: c = .isNull(e)
        case 6:
            let (sop, text) = pick([
                (StringOperator.beginsWith, "b"), (.endsWith, "b"), (.contains, "o"),
                (.like(.sql(escape: "\\")), "b_\\%%"), (.like(.glob), "?o*"),
            ])
            c = .string(e, sop, .literal(.string(text)), chance(0.5) ? [] : .caseInsensitive)
        case 7:
            let (lo, hi) = pick([
                (Value.int(1), Value.int(5)), (.double(0.5), .double(5.5)), (.string("a"), .string("bz")),
                (.string("2015-03-22"), .string("2015-03-24")), (.date(0), .date(10)),
            ])
            c = .between(e, lower: .literal(lo), upper: .literal(hi))
        case 8: c = .inCollection(.literal(pick(constants)), e, [])
        case 9, 15:
            // An NSPredicate quantifier's body, or (15) one in any semantics.
            let bodySemantics = roll == 9 ? LeafSemantics.predicate : pick(LeafSemantics.allCases)
            let body = Filter.leaf(
                .compare(.variable("x"), op, .literal(pick(constants)), []), negated: chance(1.0 / 3),
                bodySemantics)
            c = .quantified(pick([.any, .all, .none]), e, variable: "x", body)
        case 10:
            let list = Expr.list([.literal(pick(constants)), .literal(pick(constants))])
            c = pick([.containsAll(e, list), .containedBy(e, list), .arraySize(e, int(0...2))])
        case 11: c = .select(pick(keys), Query(className: "U", predicate: .constant(true)), innerKey: "x")
        case 12: c = .compare(e, op, .key(pick(keys)), [])
        case 13:
            c =
                chance(0.5)
                ? .geo(.withinCircle(pick(keys), center: Self.anySemanticsAustin, radius: Distance(300, .kilometers)))
                : .text(pick(keys), TextSearch(terms: "bob"))
        case 14:
            let inner = Query(
                className: "U",
                predicate: .leaf(
                    .compare(.key("x"), .eq, .literal(5), []),
                    negated: chance(0.5), pick(LeafSemantics.allCases)))
            c = .inQuery(pick(["ref", "refs"]), inner)
        default: c = .relatedTo(Pointer(className: "T", objectId: pick(["t1", "t2", "nobody"])), key: "refs")
        }
        return .leaf(c, negated: chance(0.5), pick(semantics))
    }
}
