import QuarryCore

// `.document` leaves as `where` operators: the inverse of `Lowerer+Fields`.
extension Printer {
    mutating func document(_ c: Condition, negated: Bool, className: String, at location: Location) -> [Piece] {
        if negated, let pieces = negatedOperator(c, className: className, at: location) { return pieces }
        guard let positive = positive(c, className: className, at: location) else { return [] }
        guard negated else { return positive }
        // Document negation is logical NOT: `$nor` of the positive test.
        var placement = Placement(clause: WhereClause(location: location.member("$nor").index(0)))
        for piece in positive { placement.place(piece) }
        let branch = placement.finish(printer: &self, className: className)
        return [.member(compound(.nor, [branch], at: location))]
    }

    /// The operators that are themselves negations: `$ne`, `$nin`, `$exists: true`,
    /// `$notInQuery`, `$dontSelect`.
    private mutating func negatedOperator(_ c: Condition, className: String, at location: Location) -> [Piece]? {
        switch c {
        case .compare(.key(let path), .eq, .literal(let v), let opts) where opts.isEmpty:
            guard equalityValue(v, at: location.member(path.description)) else { return [] }
            return [.op(path.description, .compare(.ne, Located(.value(v), .request)))]
        case .inCollection(.key(let path), .list(let items), let opts) where opts.isEmpty:
            guard let values = literals(items, at: location.member(path.description)) else { return [] }
            return [.op(path.description, .list(.notContainedIn, values))]
        case .isNull(.key(let path)):
            return [.op(path.description, .exists(true))]
        case .inQuery(let path, let inner):
            let at = location.member(path.description).member("$notInQuery")
            return [.op(path.description, .inQuery(spec(inner, at: at, inner: true), negated: true))]
        case .select(let path, let inner, let innerKey):
            let at = location.member(path.description).member("$dontSelect")
            return [
                .op(
                    path.description,
                    .select(
                        spec(inner, at: at.member("query"), inner: true),
                        key: Located(innerKey.description, .request), negated: true))
            ]
        default:
            return nil
        }
    }

    private mutating func positive(_ c: Condition, className: String, at location: Location) -> [Piece]? {
        switch c {
        case .compare(.key(let path), let op, let rhs, let opts) where opts.isEmpty:
            let at = location.member(path.description)
            switch (op, rhs) {
            case (.eq, .literal(let v)):
                return equalityValue(v, at: at) ? [.equals(path.description, v)] : nil
            case (.lt, _), (.le, _), (.gt, _), (.ge, _):
                guard let operand = orderedOperand(rhs, at: at) else { return nil }
                return [.op(path.description, .compare(op, Located(operand, .request)))]
            default:
                inexpressible(
                    "a document-semantics '\(op.rawValue)' test", at: at,
                    notes: ["Parse's $ne is the negation of equality; write it as a negated '=='"])
                return nil
            }
        case .inCollection(.key(let path), .list(let items), let opts) where opts.isEmpty:
            guard let values = literals(items, at: location.member(path.description)) else { return nil }
            return [.op(path.description, .list(.containedIn, values))]
        case .isNull(.key(let path)):
            return [.op(path.description, .exists(false))]
        case .string(.key(let path), let op, .literal(.string(let text)), let opts)
        where !opts.contains(.diacriticInsensitive):
            return [.op(path.description, stringOperator(op, text, caseInsensitive: opts.contains(.caseInsensitive)))]
        case .containsAll(.key(let path), .list(let items)):
            guard let values = literals(items, at: location.member(path.description)) else { return nil }
            return [.op(path.description, .list(.containsAll, values))]
        case .containedBy(.key(let path), .list(let items)):
            guard let values = literals(items, at: location.member(path.description)) else { return nil }
            return [.op(path.description, .list(.containedBy, values))]
        case .arraySize(.key(let path), let n):
            return [.op(path.description, .size(n))]
        case .geo(let g):
            return geo(g, at: location).map { [$0] }
        case .inQuery(let path, let inner):
            let at = location.member(path.description).member("$inQuery")
            return [.op(path.description, .inQuery(spec(inner, at: at, inner: true), negated: false))]
        case .select(let path, let inner, let innerKey):
            let at = location.member(path.description).member("$select")
            return [
                .op(
                    path.description,
                    .select(
                        spec(inner, at: at.member("query"), inner: true),
                        key: Located(innerKey.description, .request), negated: false))
            ]
        case .relatedTo(let object, let key):
            let at = location.member("$relatedTo")
            return [.member(.relatedTo(Located(object, at), key: Located(key, at), at))]
        case .text(let path, let search):
            return [.op(path.description, .text(search))]
        default:
            inexpressible(Printer.describe(c) + " on " + Printer.subjectDescription(c), at: location)
            return nil
        }
    }

    private func stringOperator(_ op: StringOperator, _ text: String, caseInsensitive: Bool) -> FieldOperator {
        var letters = caseInsensitive ? "i" : ""
        let pattern: String
        switch op {
        case .beginsWith: pattern = QuotedRegex.pattern(.prefix, text)
        case .endsWith: pattern = QuotedRegex.pattern(.suffix, text)
        case .contains: pattern = QuotedRegex.pattern(.contains, text)
        case .like(let syntax):
            pattern = LikePattern.regex(text, syntax)
            letters += "s"
        case .matches(let options):
            // A whole-string match (NSPredicate MATCHES) is the search anchored at both ends.
            pattern = options.wholeString ? #"\A(?:"# + text + #")\z"# : text
            letters = options.flags.union(caseInsensitive ? .caseInsensitive : []).letters
        }
        let ordered = RegexFlags(letters: letters)?.letters ?? letters
        return .regex(pattern, options: ordered.isEmpty ? nil : Located(ordered, .request))
    }

    private mutating func geo(_ g: GeoCondition, at location: Location) -> Piece? {
        let path = g.key.description
        switch g {
        case .near(_, let point, let maxDistance):
            return .op(
                path, .near(point, maxDistance: maxDistance.map { Located(BuilderSpec.wireDistance($0), .request) }))
        case .withinBox(_, let sw, let ne):
            return .op(path, .withinBox(southwest: sw, northeast: ne))
        case .withinPolygon(_, let points):
            return .op(path, .withinPolygon(points))
        case .withinCircle(_, let center, let radius):
            return .op(path, .withinCircle(center: center, radius: Distance(radius.radians, .radians)))
        case .polygonContains(_, let point):
            return .op(path, .polygonContains(point))
        case .distance(_, let from, .le, let d):
            return .op(path, .withinCircle(center: from, radius: Distance(d.radians, .radians)))
        case .distance(_, _, let op, _):
            inexpressible(
                "a distance test with '\(op.rawValue)'", at: location.member(path),
                notes: ["only 'distance <= d' has a Parse form ($geoWithin.$centerSphere)"])
            return nil
        }
    }

    /// A value usable as an equality operand.
    private mutating func equalityValue(_ v: Value, at location: Location) -> Bool {
        switch v {
        case .array, .object:
            inexpressible(
                "exact equality with a \(v.typeName)", at: location,
                notes: ["Parse rejects exact matching of arrays and objects (error 102)"])
            return false
        default:
            return true
        }
    }

    private mutating func orderedOperand(_ e: Expr, at location: Location) -> Operand? {
        switch e {
        case .literal(let v):
            switch v {
            case .int, .double, .string, .date: return .value(v)
            default: break
            }
        case .function(.relativeTime, let args):
            if args.count == 1, case .literal(.string(let text)) = args[0] { return .relativeTime(text) }
        default: break
        }
        inexpressible("an ordered comparison with \(Printer.exprDescription(e))", at: location)
        return nil
    }

    private mutating func literals(_ items: [Expr], at location: Location) -> [Located<Value>]? {
        var out: [Located<Value>] = []
        for item in items {
            guard case .literal(let v) = item, equalityValue(v, at: location) else {
                if case .literal = item { return nil }
                inexpressible("a list element that is \(Printer.exprDescription(item))", at: location)
                return nil
            }
            out.append(Located(v, .request))
        }
        return out
    }

    static func subjectDescription(_ c: Condition) -> String {
        subject(of: c).map(exprDescription) ?? "the object"
    }

    static func exprDescription(_ e: Expr) -> String {
        switch e {
        case .literal(let v): return "a \(v.typeName) literal"
        case .key(let k): return "key '\(k)'"
        case .variable(let name): return "variable $\(name)"
        case .evaluatedObject: return "SELF"
        case .member: return "a member of an expression"
        case .list: return "a list"
        case .arithmetic(let op, _, _): return "arithmetic '\(op.rawValue)'"
        case .negate: return "a negation"
        case .function(let f, _): return "function \(f.callName)"
        case .aggregate(let a, _): return "aggregate \(a.rawValue)"
        case .index: return "an index"
        case .subquery: return "SUBQUERY"
        case .cast: return "CAST"
        }
    }
}
