import QuarryCore
import QuarryData

/// Writes the request model as Parse REST JSON, in the shapes the SDKs send: operators in the
/// order they were given, `$options` after `$regex`, the `$maxDistance…` member after
/// `$nearSphere`, values in their `__type` wrappers.
enum RequestEncoder {
    /// A bare where object when the query has no parameters, else a find body.
    static func json(_ spec: QuerySpec) -> JSON {
        let whereJSON = clause(spec.whereClause)
        let parameters = self.parameters(spec)
        // A bare where whose own `where` member holds an object would read back as a find body.
        let ambiguous: Bool
        if case .object(let o) = whereJSON, case .object? = o["where"] { ambiguous = true } else { ambiguous = false }
        if parameters.isEmpty && !ambiguous { return whereJSON }
        return .object(JSONObject([("where", whereJSON)] + parameters))
    }

    private static func parameters(_ spec: QuerySpec) -> [(String, JSON)] {
        var out: [(String, JSON)] = []
        if let order = spec.order {
            out.append(
                ("order", .string(order.value.map { ($0.descending ? "-" : "") + $0.key }.joined(separator: ","))))
        }
        if let limit = spec.limit { out.append(("limit", .int(Int64(limit.value)))) }
        if let skip = spec.skip { out.append(("skip", .int(Int64(skip.value)))) }
        if let keys = spec.keys { out.append(("keys", .string(keys.value.joined(separator: ",")))) }
        if let keys = spec.excludeKeys { out.append(("excludeKeys", .string(keys.value.joined(separator: ",")))) }
        if let keys = spec.includes { out.append(("include", .string(keys.value.joined(separator: ",")))) }
        if spec.count { out.append(("count", .int(1))) }
        return out
    }

    static func clause(_ c: WhereClause) -> JSON {
        var members: [(String, JSON)] = []
        for member in c.members {
            switch member {
            case .field(let field):
                switch field.constraint {
                case .equals(let v): members.append((field.key, ParseJSON.encode(v.value)))
                case .operators(let ops): members.append((field.key, .object(JSONObject(ops.flatMap { op($0.op) }))))
                }
            case .compound(let compound):
                members.append((compound.kind.rawValue, .array(compound.branches.map { clause($0.clause) })))
            case .relatedTo(let object, let key, _):
                members.append(
                    ("$relatedTo", ["object": ParseJSON.encode(.pointer(object.value)), "key": .string(key.value)]))
            }
        }
        return .object(JSONObject(members))
    }

    private static func point(_ p: GeoPoint) -> JSON { ParseJSON.encode(.geoPoint(p)) }

    private static func op(_ op: FieldOperator) -> [(String, JSON)] {
        let name = op.slot
        switch op {
        case .compare(_, let operand):
            switch operand.value {
            case .value(let v): return [(name, ParseJSON.encode(v))]
            case .relativeTime(let text): return [(name, ["$relativeTime": .string(text)])]
            }
        case .list(_, let values):
            return [(name, .array(values.map { ParseJSON.encode($0.value) }))]
        case .exists(let b):
            return [(name, .bool(b))]
        case .regex(let pattern, let options):
            return [(name, .string(pattern))] + (options.map { [("$options", JSON.string($0.value))] } ?? [])
        case .size(let n):
            return [(name, .int(Int64(n)))]
        case .near(let p, let maxDistance):
            var out: [(String, JSON)] = [(name, point(p))]
            if let d = maxDistance?.value {
                out.append((BuilderSpec.maxDistanceName(d.unit), .double(d.value)))
            }
            return out
        case .minDistance(_, let d):
            return [(name, .double(d.value.radians))]
        case .withinBox(let sw, let ne):
            return [(name, ["$box": .array([point(sw), point(ne)])])]
        case .withinPolygon(let points):
            return [(name, ["$polygon": .array(points.map(point))])]
        case .withinCircle(let center, let radius):
            return [(name, ["$centerSphere": .array([point(center), .double(radius.radians)])])]
        case .polygonContains(let p):
            return [(name, ["$point": point(p)])]
        case .inQuery(let spec, _):
            return [(name, inner(spec))]
        case .select(let spec, let key, _):
            return [(name, ["query": inner(spec), "key": .string(key.value)])]
        case .text(let search):
            var s: [(String, JSON)] = [("$term", .string(search.terms))]
            if let language = search.language { s.append(("$language", .string(language))) }
            if search.caseSensitive { s.append(("$caseSensitive", true)) }
            if search.diacriticSensitive { s.append(("$diacriticSensitive", true)) }
            return [(name, ["$search": .object(JSONObject(s))])]
        }
    }

    /// An inner query as the SDKs send it: `{"where": …, "className": …}` plus limit, skip, order.
    private static func inner(_ spec: QuerySpec) -> JSON {
        .object(
            JSONObject(
                [("where", clause(spec.whereClause)), ("className", .string(spec.className.value))]
                    + parameters(spec)))
    }
}
