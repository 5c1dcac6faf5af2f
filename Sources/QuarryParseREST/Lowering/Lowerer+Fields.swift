import QuarryCore

// One key of a where object: its equality value or its operators, each lowered to a `.document`
// leaf (Parse / MongoDB semantics: an array field matches when the array or any element passes;
// `$ne`, `$nin`, `$notInQuery` and `$dontSelect` are logical NOT and so match a missing field).
extension Lowerer {
    mutating func field(
        _ entry: FieldEntry, subqueryDepth: Int, depth: Int, inCompound: Bool,
        nears: inout [SortKey]
    ) -> [Filter] {
        guard let path = keyPath(entry.key, at: entry.location) else { return [] }
        switch entry.constraint {
        case .equals(let value):
            guard equalityOperand(value) else { return [] }
            recorder?.note(value)
            let equality = leaf(.compare(.key(path), .eq, .literal(value.value), []))
            return [entry.location.range.map(equality.locating) ?? equality]
        case .operators(let ops):
            var out: [Filter] = []
            for entry in ops {
                if entry.op.isGeo && inCompound && rules.isCompatibility {
                    problems.add(
                        .json.compoundGeo,
                        "geo constraints such as \(entry.op.slot) are not allowed in "
                            + "the subqueries of $or, $and or $nor in the \(rules.profile) profile",
                        at: entry.location)
                    continue
                }
                if let p = op(entry, path: path, subqueryDepth: subqueryDepth, depth: depth, nears: &nears) {
                    out.append(entry.location.range.map(p.locating) ?? p)
                }
            }
            return out
        }
    }

    private func leaf(_ c: Condition, negated: Bool = false) -> Filter {
        .leaf(c, negated: negated, .document)
    }

    private mutating func op(
        _ entry: OperatorEntry, path: FieldPath, subqueryDepth: Int, depth: Int,
        nears: inout [SortKey]
    ) -> Filter? {
        let at = entry.location
        switch entry.op {
        case .compare(let op, let operand):
            return compare(op, operand, path: path)
        case .list(let op, let values):
            guard let list = listOperand(op, values, at: at) else { return nil }
            switch op {
            case .containedIn: return leaf(.inCollection(.key(path), list, []))
            case .notContainedIn: return leaf(.inCollection(.key(path), list, []), negated: true)
            case .containsAll: return leaf(.containsAll(.key(path), list))
            case .containedBy: return leaf(.containedBy(.key(path), list))
            }
        case .exists(let exists):
            return leaf(.isNull(.key(path)), negated: exists)
        case .regex(let pattern, let options):
            return regex(pattern, options, path: path, at: at)
        case .size(let n):
            guard n >= 0 else {
                problems.add(.json.operand, "$size must be a non-negative integer, not \(n)", at: at)
                return nil
            }
            return leaf(.arraySize(.key(path), n))
        case .near(let point, let maxDistance):
            rules.check(point, at: at, problems: &problems)
            var distance = maxDistance?.value
            recorder?.noteGeo(at)
            if let d = maxDistance {
                checkDistance(d.value, at: d.location)
                recorder?.noteGeo(d.location)
            }
            if distance == nil { distance = rules.nearDefaultMaxDistance }
            nears.append(.distance(path, from: point, .ascending))
            return leaf(.geo(.near(path, point, maxDistance: distance)))
        case .minDistance(let point, let minimum):
            // LeanCloud's SDKs send it (MongoDB's operator); parse-server refuses it as a bad constraint.
            guard rules.profile != .parse else {
                problems.add(
                    .json.unknownOperator, "$minDistance is LeanCloud's; the parse profile does not accept it",
                    at: minimum.location)
                return nil
            }
            checkDistance(minimum.value, at: minimum.location)
            recorder?.noteGeo(minimum.location)
            return leaf(.geo(.distance(path, from: point, .ge, minimum.value)))
        case .withinBox(let sw, let ne):
            rules.check(sw, at: at, problems: &problems)
            rules.check(ne, at: at, problems: &problems)
            if ProfileRules.crossesAntimeridian(sw, ne) {
                problems.add(
                    .json.geoBox,
                    "the box's south-west longitude \(sw.longitude) lies east of its "
                        + "north-east longitude \(ne.longitude): boxes that cross the antimeridian are not "
                        + "supported", at: at,
                    notes: ["split it into two boxes joined with $or"])
                return nil
            }
            if ProfileRules.southIsNorthOfNorth(sw, ne) {
                problems.add(
                    .json.geoBox,
                    "the box's south-west latitude \(sw.latitude) lies north of its "
                        + "north-east latitude \(ne.latitude)", at: at)
                return nil
            }
            recorder?.noteGeo(at)
            return leaf(.geo(.withinBox(path, southwest: sw, northeast: ne)))
        case .withinPolygon(let points):
            guard points.count >= 3 else {
                problems.add(.json.operand, "$polygon needs at least 3 points, not \(points.count)", at: at)
                return nil
            }
            guard points.count <= limits.maxInListSize else {
                problems.add(
                    .limit.inList,
                    "the polygon has \(points.count) points; at most "
                        + "\(limits.maxInListSize) are allowed", at: at)
                return nil
            }
            for p in points { rules.check(p, at: at, problems: &problems) }
            return leaf(.geo(.withinPolygon(path, points)))
        case .withinCircle(let center, let radius):
            rules.check(center, at: at, problems: &problems)
            checkDistance(radius, at: at)
            recorder?.noteGeo(at)
            return leaf(.geo(.withinCircle(path, center: center, radius: radius)))
        case .polygonContains(let point):
            rules.check(point, at: at, problems: &problems)
            recorder?.noteGeo(at)
            return leaf(.geo(.polygonContains(path, point)))
        case .inQuery(let spec, let negated):
            guard let inner = subquery(spec, at: at, depth: depth, subqueryDepth: subqueryDepth) else { return nil }
            return leaf(.inQuery(path, inner), negated: negated)
        case .select(let spec, let key, let negated):
            guard let innerKey = keyPath(key.value, at: key.location),
                let inner = subquery(spec, at: at, depth: depth, subqueryDepth: subqueryDepth)
            else { return nil }
            return leaf(.select(path, inner, innerKey: innerKey), negated: negated)
        case .text(let search):
            if search.terms.isEmpty {
                problems.add(.json.operand, "$text needs a non-empty $search.$term", at: at)
                return nil
            }
            return leaf(.text(path, search))
        }
    }

    // MARK: - Operands

    /// Equality operands: exact matching against an array or an object is Parse error 102.
    private mutating func equalityOperand(_ value: Located<Value>) -> Bool {
        switch value.value {
        case .array, .object:
            problems.add(
                .json.exactMatch,
                "cannot match a \(value.value.typeName) exactly; to find arrays "
                    + "that contain values use $all or $in", at: value.location)
            return false
        case .geoPoint(let p):
            rules.check(p, at: value.location, problems: &problems)
            return true
        default:
            return true
        }
    }

    private mutating func compare(
        _ op: ComparisonOperator, _ operand: Located<Operand>,
        path: FieldPath
    ) -> Filter? {
        let name = ComparisonWire.name(op)
        switch operand.value {
        case .relativeTime(let text):
            guard op != .eq && op != .ne else {
                problems.add(
                    .json.relativeTime, "$relativeTime can only be used with $lt, $lte, $gt and $gte",
                    at: operand.location)
                return nil
            }
            if case .failure(let failure) = RelativeTime.parse(text) {
                problems.add(
                    .json.relativeTime, "bad $relativeTime (\(name)) value '\(text)'. \(failure.message)",
                    at: operand.location)
                return nil
            }
            let now = Expr.function(.relativeTime, [.literal(.string(text))])
            return leaf(.compare(.key(path), op, now, []))
        case .value(let v):
            switch op {
            case .eq, .ne:
                guard equalityOperand(Located(v, operand.location)) else { return nil }
                recorder?.note(Located(v, operand.location))
                return leaf(.compare(.key(path), .eq, .literal(v), []), negated: op == .ne)
            case .lt, .le, .gt, .ge:
                switch v {
                case .int, .double, .string, .date:
                    recorder?.note(Located(v, operand.location))
                    return leaf(.compare(.key(path), op, .literal(v), []))
                default:
                    problems.add(
                        .json.operand,
                        "\(name) compares numbers, strings and dates, not a "
                            + "\(v.typeName)", at: operand.location)
                    return nil
                }
            }
        }
    }

    /// The literal list of `$in`, `$nin`, `$all` or `$containedBy`. Like parse-server, nested
    /// arrays in `$in` / `$nin` are flattened one level.
    private mutating func listOperand(_ op: ListOperator, _ values: [Located<Value>], at: Location) -> Expr? {
        var items: [Expr] = []
        var ok = true
        for value in values {
            if case .array(let inner) = value.value, op == .containedIn || op == .notContainedIn {
                for v in inner {
                    ok = equalityOperand(Located(v, value.location)) && ok
                    items.append(.literal(v))
                }
            } else {
                ok = equalityOperand(value) && ok
                recorder?.note(value)
                items.append(.literal(value.value))
            }
        }
        if items.count > limits.maxInListSize {
            problems.add(
                .limit.inList,
                "\(op.rawValue) lists \(items.count) values; at most "
                    + "\(limits.maxInListSize) are allowed", at: at)
            return nil
        }
        return ok ? .list(items) : nil
    }

    private mutating func regex(
        _ pattern: String, _ options: Located<String>?, path: FieldPath, at location: Location
    ) -> Filter? {
        var flags: RegexFlags = []
        if let options {
            guard let parsed = RegexFlags(letters: options.value) else {
                problems.add(
                    .json.regexOptions, "bad $options '\(options.value)'; the modifiers are i, m, x and s",
                    at: options.location)
                return nil
            }
            flags = parsed
        }
        // The SDKs' quoted literal tests keep their meaning: prefix, suffix, substring.
        if flags.isSubset(of: .caseInsensitive), let (shape, literal) = QuotedRegex.parse(pattern) {
            let op: StringOperator
            switch shape {
            case .prefix: op = .beginsWith
            case .suffix: op = .endsWith
            case .contains: op = .contains
            }
            let options: StringOptions = flags.isEmpty ? [] : .caseInsensitive
            return leaf(.string(.key(path), op, .literal(.string(literal)), options))
        }
        // Only a pattern the quoted form does not read goes in as written.
        recorder?.note(Located(.string(pattern), location))
        return leaf(
            .string(
                .key(path), .matches(RegexOptions(wholeString: false, flags: flags)),
                .literal(.string(pattern)), []))
    }

    private mutating func checkDistance(_ d: Distance, at location: Location) {
        if !ProfileRules.validDistance(d) {
            problems.add(
                .json.operand, "a distance must be a non-negative number, not \(d.value)",
                at: location)
        }
    }

    private mutating func subquery(_ spec: QuerySpec, at: Location, depth: Int, subqueryDepth: Int) -> Query? {
        subqueries += 1
        if subqueries > limits.maxSubqueries {
            problems.add(
                .limit.subqueries, "the query has more than \(limits.maxSubqueries) inner queries",
                at: at)
            return nil
        }
        if subqueryDepth + 1 > limits.maxSubqueryDepth {
            problems.add(
                .limit.subqueryDepth, "inner queries nest deeper than \(limits.maxSubqueryDepth) levels",
                at: at)
            return nil
        }
        return query(spec, inner: true, depth: depth + 1, subqueryDepth: subqueryDepth + 1)
    }
}
