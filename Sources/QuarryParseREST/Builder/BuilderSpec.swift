import QuarryCore
import QuarryData

// Turns a builder into the request it stands for (`QuerySpec`), folding its constraints into a
// where object the way the SDKs fill their per-key dictionaries.
extension QueryBuilder {
    /// The request, with locations under `base` (the empty path for the outer query,
    /// `where.post.$inQuery` for an inner one).
    func spec(at base: Location) -> QuerySpec {
        let clause = ClauseAssembler.clause(constraints, at: base.member("where"), replacing: true)
        var spec = QuerySpec(className: Located(className, base.member("className")), whereClause: clause)
        if let ordering {
            spec.order = Located(
                ordering.map { OrderEntry(key: $0.key, descending: $0.descending) },
                base.member("order"))
        }
        if let skipCount { spec.skip = Located(skipCount, base.member("skip")) }
        if let limitCount { spec.limit = Located(limitCount, base.member("limit")) }
        if let selectedKeys { spec.keys = Located(selectedKeys, base.member("keys")) }
        if let excludedKeys { spec.excludeKeys = Located(excludedKeys, base.member("excludeKeys")) }
        if let includedKeys { spec.includes = Located(includedKeys, base.member("include")) }
        return spec
    }
}

/// Builds one where object from constraints. With `replacing`, a constraint on a key and
/// operator already present replaces it (the SDKs' `where` calls); without, it is kept beside
/// the first in a `$and` (`&&`).
struct ClauseAssembler {
    var clause: WhereClause
    var replacing: Bool
    /// Conjuncts that could not share the where object with an earlier one.
    var overflow: [Constraint] = []

    static func clause(_ constraints: [Constraint], at location: Location, replacing: Bool) -> WhereClause {
        var a = ClauseAssembler(clause: WhereClause(location: location), replacing: replacing)
        for c in constraints { a.add(c) }
        if !a.overflow.isEmpty {
            let andLocation = location.member("$and")
            let rest = clause(a.overflow, at: andLocation.index(0), replacing: false)
            a.clause.members.append(
                .compound(
                    Compound(
                        kind: .and, branches: [Branch(clause: rest)],
                        location: andLocation)))
        }
        return a.clause
    }

    mutating func add(_ c: Constraint) {
        switch c.kind {
        case .equals(let key, let value):
            let location = clause.location.member(key)
            let entry = FieldEntry(key: key, location: location, constraint: .equals(Located(value, location)))
            if let i = fieldIndex(key) {
                if replacing { clause.members[i] = .field(entry) } else { overflow.append(c) }
            } else {
                clause.members.append(.field(entry))
            }
        case .op(let key, let builderOp):
            addOperator(c, key: key, builderOp)
        case .compound(.and, let parts):
            let saved = replacing
            replacing = false
            for part in parts { add(part) }
            replacing = saved
        case .compound(let kind, let parts):
            let location = clause.location.member(kind.rawValue)
            let branches = parts.enumerated().map { i, part in
                Branch(clause: ClauseAssembler.clause([part], at: location.index(i), replacing: false))
            }
            clause.members.append(.compound(Compound(kind: kind, branches: branches, location: location)))
        case .subqueries(let kind, let queries):
            let location = clause.location.member(kind.rawValue)
            let branches = queries.enumerated().map { i, query in
                let at = location.index(i)
                let spec = query.spec(at: at)
                return Branch(
                    clause: ClauseAssembler.clause(query.constraints, at: at, replacing: true),
                    className: spec.className, shaping: spec.shapingParameters)
            }
            clause.members.append(.compound(Compound(kind: kind, branches: branches, location: location)))
        case .relatedTo(let object, let key):
            let location = clause.location.member("$relatedTo")
            let member = WhereMember.relatedTo(
                Located(object, location.member("object")),
                key: Located(key, location.member("key")), location)
            if let i = clause.members.firstIndex(where: { if case .relatedTo = $0 { true } else { false } }) {
                if replacing { clause.members[i] = member } else { overflow.append(c) }
            } else {
                clause.members.append(member)
            }
        }
    }

    private func fieldIndex(_ key: String) -> Int? {
        clause.members.firstIndex { if case .field(let e) = $0 { e.key == key } else { false } }
    }

    private mutating func addOperator(_ c: Constraint, key: String, _ builderOp: BuilderOperator) {
        let fieldLocation = clause.location.member(key)
        let op = BuilderSpec.fieldOperator(builderOp, fieldLocation: fieldLocation)
        let entry = OperatorEntry(op: op, location: fieldLocation.member(op.slot))
        guard let i = fieldIndex(key), case .field(var field) = clause.members[i] else {
            clause.members.append(
                .field(FieldEntry(key: key, location: fieldLocation, constraint: .operators([entry]))))
            return
        }
        var ops: [OperatorEntry]
        switch field.constraint {
        case .equals(let value):
            // An operator next to an equality: the equality becomes `$eq` in the dictionary.
            let eq = OperatorEntry(
                op: .compare(.eq, Located(.value(value.value), fieldLocation.member("$eq"))),
                location: fieldLocation.member("$eq"))
            ops = [eq]
        case .operators(let existing):
            ops = existing
        }
        if let j = ops.firstIndex(where: { $0.op.slot == op.slot }) {
            guard replacing else { overflow.append(c); return }
            ops[j] = entry
        } else {
            ops.append(entry)
        }
        field.constraint = .operators(ops)
        clause.members[i] = .field(field)
    }
}

enum BuilderSpec {
    /// The wire operator for a builder operator at `fieldLocation`. Distances are put in the
    /// units the wire has (radians, kilometres, miles) so that builder and JSON agree exactly.
    static func fieldOperator(_ op: BuilderOperator, fieldLocation: Location) -> FieldOperator {
        switch op {
        case .compare(let c, let operand):
            return .compare(c, Located(operand, fieldLocation.member(ComparisonWire.name(c))))
        case .list(let l, let values):
            let at = fieldLocation.member(l.rawValue)
            return .list(l, values.enumerated().map { Located($1, at.index($0)) })
        case .exists(let b): return .exists(b)
        case .regex(let pattern, let options):
            return .regex(pattern, options: options.map { Located($0, fieldLocation.member("$options")) })
        case .size(let n): return .size(n)
        case .near(let point, let maxDistance):
            let wire = maxDistance.map(wireDistance)
            return .near(point, maxDistance: wire.map { Located($0, fieldLocation.member(maxDistanceName($0.unit))) })
        case .withinBox(let sw, let ne): return .withinBox(southwest: sw, northeast: ne)
        case .withinPolygon(let points): return .withinPolygon(points)
        case .withinCircle(let center, let radius):
            let radians = radius.unit == .radians ? radius : Distance(radius.radians, .radians)
            return .withinCircle(center: center, radius: radians)
        case .polygonContains(let point): return .polygonContains(point)
        case .inQuery(let query, let negated):
            let at = fieldLocation.member(negated ? "$notInQuery" : "$inQuery")
            return .inQuery(query.spec(at: at), negated: negated)
        case .select(let query, let key, let negated):
            let at = fieldLocation.member(negated ? "$dontSelect" : "$select")
            return .select(query.spec(at: at.member("query")), key: Located(key, at.member("key")), negated: negated)
        case .text(let search): return .text(search)
        }
    }

    /// Radians, kilometres and miles as written; other units as kilometres.
    static func wireDistance(_ d: Distance) -> Distance {
        switch d.unit {
        case .radians, .kilometers, .miles: return d
        case .meters, .feet, .yards: return Distance(d.meters / 1000, .kilometers)
        }
    }

    static func maxDistanceName(_ unit: DistanceUnit) -> String {
        switch unit {
        case .radians: return "$maxDistanceInRadians"
        case .miles: return "$maxDistanceInMiles"
        default: return "$maxDistanceInKilometers"
        }
    }
}
