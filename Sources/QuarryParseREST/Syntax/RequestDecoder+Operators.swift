import QuarryCore
import QuarryData

// The operator dictionary of one key: `{"$gt": 5, "$lt": 10}`. `$options` belongs to `$regex`
// and the `$maxDistance…` members to `$nearSphere`; everything else is one operator each.
extension RequestDecoder {
    static let operatorNames = [
        "$eq", "$ne", "$lt", "$lte", "$gt", "$gte", "$in", "$nin", "$all", "$containedBy",
        "$exists", "$regex", "$options", "$size", "$nearSphere", "$maxDistance",
        "$maxDistanceInRadians", "$maxDistanceInKilometers", "$maxDistanceInMiles", "$minDistance", "$within",
        "$geoWithin", "$geoIntersects", "$inQuery", "$notInQuery", "$select", "$dontSelect",
        "$text",
    ]

    static let maxDistanceUnits: [(String, DistanceUnit)] = [
        ("$maxDistance", .radians), ("$maxDistanceInRadians", .radians),
        ("$maxDistanceInKilometers", .kilometers), ("$maxDistanceInMiles", .miles),
    ]

    mutating func operators(_ members: [JSONNode.Member], at: Location) -> [OperatorEntry] {
        func find(_ name: String) -> JSONNode.Member? { members.first { $0.key == name } }
        var out: [OperatorEntry] = []
        for m in members {
            let opAt = at.member(m.key, range: m.value.range)
            let keyAt = Location(path: opAt.path, range: m.keyRange)
            if let op = decode(m.key, m.value, at: opAt, keyAt: keyAt, find: find) {
                out.append(OperatorEntry(op: op, location: opAt))
            }
        }
        return out
    }

    private mutating func decode(
        _ name: String, _ node: JSONNode, at: Location, keyAt: Location,
        find: (String) -> JSONNode.Member?
    ) -> FieldOperator? {
        if let op = ComparisonWire.op(name) {
            return operand(node, at: at).map { .compare(op, Located($0, at)) }
        }
        switch name {
        case "$in", "$nin", "$all", "$containedBy":
            guard case .array(let items) = node.kind else {
                return bad("bad \(name) value: expected an array, not \(RequestDecoder.article(node))", at)
            }
            var values: [Located<Value>] = []
            for (i, item) in items.enumerated() {
                let itemAt = at.index(i, range: item.range)
                guard let v = value(item, at: itemAt) else { return nil }
                values.append(Located(v, itemAt))
            }
            return .list(ListOperator(rawValue: name)!, values)
        case "$exists":
            guard case .bool(let b) = node.kind else { return bad("$exists takes true or false", at) }
            return .exists(b)
        case "$regex":
            guard case .string(let pattern) = node.kind else { return bad("bad $regex: expected a string", at) }
            var options: Located<String>?
            if let o = find("$options") {
                let optionsAt = at.replacingLast("$options", range: o.value.range)
                guard case .string(let letters) = o.value.kind else {
                    problems.add(
                        .json.regexOptions, "$options is a string of the letters i, m, x and s",
                        at: optionsAt)
                    return nil
                }
                options = Located(letters, optionsAt)
            }
            return .regex(pattern, options: options)
        case "$options":
            if find("$regex") == nil { return bad("$options modifies $regex, which is missing", keyAt, .json.operator) }
            return nil
        case "$size":
            guard case .int(let n) = node.kind, let size = Int(exactly: n) else {
                return bad("$size takes a non-negative integer", at)
            }
            return .size(size)
        case "$nearSphere":
            guard let point = geoPoint(node, at: at) else { return nil }
            var maxDistance: Located<Distance>?
            for (unitName, unit) in RequestDecoder.maxDistanceUnits {
                guard let m = find(unitName) else { continue }
                let distanceAt = at.replacingLast(unitName, range: m.value.range)
                guard maxDistance == nil else {
                    return bad(
                        "give only one of $maxDistance, $maxDistanceInRadians, $maxDistanceInKilometers "
                            + "and $maxDistanceInMiles", distanceAt, .json.operator)
                }
                guard let d = number(m.value) else { return bad("\(unitName) takes a number", distanceAt) }
                maxDistance = Located(Distance(d, unit), distanceAt)
            }
            return .near(point, maxDistance: maxDistance)
        case "$maxDistance", "$maxDistanceInRadians", "$maxDistanceInKilometers", "$maxDistanceInMiles":
            if find("$nearSphere") == nil {
                return bad("\(name) limits $nearSphere, which is missing", keyAt, .json.operator)
            }
            return nil
        case "$minDistance":
            guard let near = find("$nearSphere") else {
                return bad("$minDistance limits $nearSphere, which is missing", keyAt, .json.operator)
            }
            guard let d = number(node) else { return bad("$minDistance takes a number (radians)", at) }
            let pointAt = at.replacingLast("$nearSphere", range: near.value.range)
            return geoPoint(near.value, at: pointAt).map { .minDistance($0, Located(Distance(d, .radians), at)) }
        case "$within":
            guard case .array(let corners)? = node["$box"]?.kind, corners.count == 2, node.objectCount == 1 else {
                return bad("$within takes {\"$box\": [<south-west GeoPoint>, <north-east GeoPoint>]}", at)
            }
            let boxAt = at.member("$box")
            guard let sw = geoPoint(corners[0], at: boxAt.index(0, range: corners[0].range)),
                let ne = geoPoint(corners[1], at: boxAt.index(1, range: corners[1].range))
            else { return nil }
            return .withinBox(southwest: sw, northeast: ne)
        case "$geoWithin":
            return geoWithin(node, at: at)
        case "$geoIntersects":
            guard let pointNode = node["$point"], node.objectCount == 1 else {
                return bad("$geoIntersects takes {\"$point\": <GeoPoint>}", at)
            }
            return geoPoint(pointNode, at: at.member("$point", range: pointNode.range)).map { .polygonContains($0) }
        case "$inQuery", "$notInQuery":
            return innerQuery(node, at: at, operatorName: name).map { .inQuery($0, negated: name == "$notInQuery") }
        case "$select", "$dontSelect":
            return select(node, at: at, operatorName: name)
        case "$text":
            return text(node, at: at)
        default:
            problems.add(
                .json.unknownOperator,
                "unknown operator '\(name)'; expected one of "
                    + RequestDecoder.operatorNames.joined(separator: " "), at: keyAt)
            return nil
        }
    }

    private mutating func bad(_ message: String, _ at: Location, _ code: DiagnosticCode = .json.operand)
        -> FieldOperator?
    {
        problems.add(code, message, at: at)
        return nil
    }

    /// The right side of a comparison: a value, or `{"$relativeTime": "…"}`.
    private mutating func operand(_ node: JSONNode, at: Location) -> Operand? {
        if let relative = node["$relativeTime"] {
            guard case .string(let text) = relative.kind, node.objectCount == 1 else {
                problems.add(
                    .json.relativeTime, "$relativeTime takes a string such as \"3 days ago\"",
                    at: at)
                return nil
            }
            return .relativeTime(text)
        }
        return value(node, at: at).map(Operand.value)
    }

    private func number(_ node: JSONNode) -> Double? {
        switch node.kind {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// A GeoPoint wrapper; where MongoDB allows it, also a `[longitude, latitude]` pair.
    private mutating func geoPoint(_ node: JSONNode, at: Location, allowPair: Bool = false) -> GeoPoint? {
        if allowPair, case .array(let pair) = node.kind {
            guard pair.count == 2, let lon = number(pair[0]), let lat = number(pair[1]) else {
                problems.add(.json.operand, "a coordinate pair is [longitude, latitude]", at: at)
                return nil
            }
            return GeoPoint(latitude: lat, longitude: lon)
        }
        guard let v = value(node, at: at) else { return nil }
        guard case .geoPoint(let p) = v else {
            problems.add(
                .json.operand,
                "expected a GeoPoint {\"__type\":\"GeoPoint\",\"latitude\":…,\"longitude\":…}, "
                    + "not a \(v.typeName)", at: at)
            return nil
        }
        return p
    }

    private mutating func geoWithin(_ node: JSONNode, at: Location) -> FieldOperator? {
        if let polygonNode = node["$polygon"], node.objectCount == 1 {
            let polygonAt = at.member("$polygon", range: polygonNode.range)
            if case .array(let items) = polygonNode.kind {
                var points: [GeoPoint] = []
                for (i, item) in items.enumerated() {
                    guard let p = geoPoint(item, at: polygonAt.index(i, range: item.range), allowPair: true) else {
                        return nil
                    }
                    points.append(p)
                }
                return .withinPolygon(points)
            }
            guard let v = value(polygonNode, at: polygonAt) else { return nil }
            guard case .polygon(let points) = v else {
                return bad("$polygon takes an array of GeoPoints or a Polygon", polygonAt)
            }
            return .withinPolygon(points)
        }
        if let sphere = node["$centerSphere"], node.objectCount == 1 {
            let sphereAt = at.member("$centerSphere", range: sphere.range)
            guard case .array(let parts) = sphere.kind, parts.count == 2 else {
                return bad("$centerSphere takes [<GeoPoint or [longitude, latitude]>, <radius in radians>]", sphereAt)
            }
            guard let center = geoPoint(parts[0], at: sphereAt.index(0, range: parts[0].range), allowPair: true) else {
                return nil
            }
            guard let radius = number(parts[1]) else {
                return bad("the $centerSphere radius is a number of radians", sphereAt.index(1, range: parts[1].range))
            }
            return .withinCircle(center: center, radius: Distance(radius, .radians))
        }
        return bad("$geoWithin takes {\"$polygon\": [GeoPoint…]} or {\"$centerSphere\": [GeoPoint, radians]}", at)
    }

    private mutating func text(_ node: JSONNode, at: Location) -> FieldOperator? {
        guard let search = node["$search"], case .object(let members) = search.kind, node.objectCount == 1 else {
            return bad("bad $text: expected {\"$search\": {\"$term\": \"…\"}}", at)
        }
        let searchAt = at.member("$search", range: search.range)
        var result = TextSearch(terms: "")
        var hasTerm = false
        for m in members {
            let memberAt = searchAt.member(m.key, range: m.value.range)
            switch (m.key, m.value.kind) {
            case ("$term", .string(let s)): result.terms = s; hasTerm = true
            case ("$language", .string(let s)): result.language = s
            case ("$caseSensitive", .bool(let b)): result.caseSensitive = b
            case ("$diacriticSensitive", .bool(let b)): result.diacriticSensitive = b
            case ("$term", _), ("$language", _):
                return bad("bad $text: \(m.key) should be a string", memberAt)
            case ("$caseSensitive", _), ("$diacriticSensitive", _):
                return bad("bad $text: \(m.key) should be a boolean", memberAt)
            default:
                return bad(
                    "bad $text: unknown member '\(m.key)'; expected $term, $language, $caseSensitive, "
                        + "$diacriticSensitive", memberAt)
            }
        }
        if !hasTerm { return bad("bad $text: $term, should be string", searchAt) }
        return .text(result)
    }

    // MARK: Inner queries

    /// `{"className": C, "where": {…}}`, with the `limit`, `skip` and `order` some SDKs send.
    mutating func innerQuery(_ node: JSONNode, at: Location, operatorName: String) -> QuerySpec? {
        guard case .object(let members) = node.kind else {
            problems.add(
                .json.subquery, "improper usage of \(operatorName): expected {\"className\": …, \"where\": {…}}",
                at: at)
            return nil
        }
        guard let classNode = node["className"], case .string(let className) = classNode.kind else {
            problems.add(
                .json.subquery, "improper usage of \(operatorName): the inner query needs a className string",
                at: at)
            return nil
        }
        var spec = QuerySpec(
            className: Located(className, at.member("className", range: classNode.range)),
            whereClause: WhereClause(location: at.member("where")))
        var hasWhere = false
        for m in members {
            let memberAt = at.member(m.key, range: m.value.range)
            switch m.key {
            case "className": break
            case "where":
                hasWhere = true
                spec.whereClause = clause(m.value, at: memberAt)
            case "order", "limit", "skip", "keys", "excludeKeys", "include", "count":
                parameter(m.key, m.value, at: memberAt, into: &spec)
            default:
                problems.add(
                    .json.subquery, "improper usage of \(operatorName): unexpected member '\(m.key)'",
                    at: at.member(m.key, range: m.keyRange))
            }
        }
        // parse-server rejects an inner query without `where` rather than reading it as "all".
        guard hasWhere else {
            problems.add(
                .json.subquery, "improper usage of \(operatorName): the inner query needs a where object",
                at: at, parseCode: ParseCode.invalidQuery)
            return nil
        }
        return spec
    }

    private mutating func select(_ node: JSONNode, at: Location, operatorName: String) -> FieldOperator? {
        guard case .object = node.kind, let queryNode = node["query"], let keyNode = node["key"], node.objectCount == 2
        else {
            problems.add(
                .json.subquery,
                "improper usage of \(operatorName): expected {\"query\": {\"className\": …, "
                    + "\"where\": {…}}, \"key\": \"…\"}", at: at)
            return nil
        }
        let keyAt = at.member("key", range: keyNode.range)
        guard case .string(let key) = keyNode.kind else {
            problems.add(.json.subquery, "improper usage of \(operatorName): key must be a string", at: keyAt)
            return nil
        }
        guard
            let spec = innerQuery(
                queryNode, at: at.member("query", range: queryNode.range),
                operatorName: operatorName)
        else { return nil }
        return .select(spec, key: Located(key, keyAt), negated: operatorName == "$dontSelect")
    }
}

extension JSONNode {
    /// The number of members of an object (0 for other values).
    var objectCount: Int {
        if case .object(let members) = kind { return members.count }
        return 0
    }
}

extension Location {
    /// The sibling of this location's last component: `where.a.$nearSphere` → `where.a.$maxDistance`.
    func replacingLast(_ name: String, range: SourceRange? = nil) -> Location {
        guard let dot = path.lastIndex(of: ".") else { return Location(path: name, range: range ?? self.range) }
        return Location(path: path[..<dot] + "." + name, range: range ?? self.range)
    }
}
