import QuarryCore
import QuarryData

/// Prints IR back into the request model (and from there into `where` JSON). For IR the JSON
/// front-end produced, lowering the printed request gives the same IR; IR from other front-ends
/// prints where `where` JSON can say the same thing, and anything else is a
/// `translate.inexpressible` diagnostic naming the construct.
struct Printer {
    let schema: (any Schema)?
    var problems = Problems()

    init(schema: (any Schema)?) {
        self.schema = schema
    }

    static func spec(_ query: Query, schema: (any Schema)?) throws(Diagnostic) -> QuerySpec {
        var printer = Printer(schema: schema)
        let spec = printer.spec(query, at: .request, inner: false)
        try printer.problems.check()
        return spec
    }

    mutating func inexpressible(_ what: String, at location: Location, notes: [String] = []) {
        problems.add(
            .translate.inexpressible, "\(what) cannot be expressed in Parse `where` JSON",
            at: location, notes: notes)
    }

    // MARK: Queries

    mutating func spec(_ query: Query, at base: Location, inner: Bool) -> QuerySpec {
        let whereLocation = base.member("where")
        let clause = self.clause(query.predicate, className: query.className, at: whereLocation)
        var spec = QuerySpec(className: Located(query.className, base.member("className")), whereClause: clause)
        let implicit = Printer.nearOrder(query.predicate)
        if query.order != implicit {
            if query.order.isEmpty {
                inexpressible(
                    "a near condition without ordering by distance", at: whereLocation,
                    notes: ["Parse sorts $nearSphere results nearest first unless an order is given"])
            } else {
                var entries: [OrderEntry] = []
                for key in query.order {
                    switch key {
                    case .key(let path, let direction):
                        entries.append(OrderEntry(key: path.description, descending: direction == .descending))
                    case .distance:
                        inexpressible("ordering by distance other than a $nearSphere's own", at: base.member("order"))
                    }
                }
                spec.order = Located(entries, base.member("order"))
            }
        }
        if query.profile == .parse, Printer.hasUnboundedNear(query.predicate) {
            inexpressible(
                "a near condition without a maximum distance in the parse profile",
                at: whereLocation, notes: ["the parse profile caps $nearSphere at 100 miles"])
        }
        if let skip = query.skip { spec.skip = Located(skip, base.member("skip")) }
        if let limit = query.limit { spec.limit = Located(limit, base.member("limit")) }
        if let keys = query.keys { spec.keys = Located(keys.map(\.description), base.member("keys")) }
        if !query.excludeKeys.isEmpty {
            spec.excludeKeys = Located(query.excludeKeys.map(\.description), base.member("excludeKeys"))
        }
        if !query.includes.isEmpty {
            spec.includes = Located(query.includes.map(\.description), base.member("include"))
        }
        spec.count = query.count
        if inner, query.keys != nil || !query.excludeKeys.isEmpty || !query.includes.isEmpty || query.count {
            inexpressible("an inner query's keys, excludeKeys, include or count", at: base)
        }
        return spec
    }

    /// The distance ordering that lowering derives from the nears of the top-level conjunction.
    static func nearOrder(_ p: Filter) -> [SortKey] {
        Lowerer.conjuncts(of: p).flatMap { c -> [SortKey] in
            if case .and = c { return nearOrder(c) }
            if case .leaf(let l) = c, !l.negated, case .geo(.near(let path, let point, _)) = l.condition {
                return [.distance(path, from: point, .ascending)]
            }
            return []
        }
    }

    static func hasUnboundedNear(_ p: Filter) -> Bool {
        switch p {
        case .constant: return false
        case .and(let ps), .or(let ps): return ps.contains(where: hasUnboundedNear)
        case .not(let q): return hasUnboundedNear(q)
        case .leaf(let l):
            if case .geo(.near(_, _, nil)) = l.condition { return true }
            return false
        }
    }

    // MARK: Where objects

    /// A where object for the predicate.
    mutating func clause(_ p: Filter, className: String, at location: Location) -> WhereClause {
        var placement = Placement(clause: WhereClause(location: location))
        for piece in pieces(p, className: className, at: location) { placement.place(piece) }
        return placement.finish(printer: &self, className: className)
    }

    /// The conjuncts of the predicate as where-object members.
    mutating func pieces(_ p: Filter, className: String, at location: Location) -> [Piece] {
        switch p {
        case .constant(true):
            return []
        case .constant(false):
            return [.member(compound(.nor, [WhereClause(location: location.member("$nor").index(0))], at: location))]
        case .and(let ps):
            return ps.flatMap { pieces($0, className: className, at: location) }
        case .or(let ps):
            if ps.isEmpty { return pieces(.constant(false), className: className, at: location) }
            let at = location.member("$or")
            let branches = ps.enumerated().map { clause($1, className: className, at: at.index($0)) }
            return [.member(compound(.or, branches, at: location))]
        case .not(let q):
            if case .constant(let b) = q { return pieces(.constant(!b), className: className, at: location) }
            // NOT of a two-valued leaf is the leaf negated (an SQL leaf's NOT rule differs).
            if case .leaf(var l) = q, l.semantics != .sql {
                l.negated.toggle()
                return pieces(.leaf(l), className: className, at: location)
            }
            let at = location.member("$nor")
            let branches: [WhereClause]
            if case .or(let qs) = q, qs.count >= 2 {
                branches = qs.enumerated().map { clause($1, className: className, at: at.index($0)) }
            } else {
                branches = [clause(q, className: className, at: at.index(0))]
            }
            return [.member(compound(.nor, branches, at: location))]
        case .leaf(let l):
            return leaf(l, className: className, at: location)
        }
    }

    func compound(_ kind: CompoundKind, _ clauses: [WhereClause], at location: Location) -> WhereMember {
        .compound(
            Compound(
                kind: kind, branches: clauses.map { Branch(clause: $0) },
                location: location.member(kind.rawValue)))
    }
}

/// A conjunct on its way into a where object.
enum Piece {
    case equals(String, Value)
    case op(String, FieldOperator)
    case member(WhereMember)
}

/// Places conjuncts into one where object so that lowering gives them back in the same order:
/// a conjunct joins the previous member only when it is on the same key and its operator is
/// free; a key or compound that already appeared earlier sends it, and everything after it,
/// into a trailing `$and`, which lowering splices back in place.
struct Placement {
    var clause: WhereClause
    var rest: [Piece] = []

    mutating func place(_ piece: Piece) {
        guard rest.isEmpty, fits(piece) else {
            rest.append(piece)
            return
        }
        switch piece {
        case .equals(let key, let value):
            if case .field(var last)? = clause.members.last, last.key == key {
                last.constraint = .operators(
                    operators(of: last) + [entry(.compare(.eq, Located(.value(value), Location.request)))])
                clause.members[clause.members.count - 1] = .field(last)
            } else {
                clause.members.append(
                    .field(
                        FieldEntry(
                            key: key, location: .request,
                            constraint: .equals(Located(value, .request)))))
            }
        case .op(let key, let op):
            if case .field(var last)? = clause.members.last, last.key == key {
                last.constraint = .operators(operators(of: last) + [entry(op)])
                clause.members[clause.members.count - 1] = .field(last)
            } else {
                clause.members.append(
                    .field(FieldEntry(key: key, location: .request, constraint: .operators([entry(op)]))))
            }
        case .member(let m):
            clause.members.append(m)
        }
    }

    private func entry(_ op: FieldOperator) -> OperatorEntry { OperatorEntry(op: op, location: .request) }

    private func operators(of field: FieldEntry) -> [OperatorEntry] {
        switch field.constraint {
        case .equals(let v): return [entry(.compare(.eq, Located(.value(v.value), .request)))]
        case .operators(let ops): return ops
        }
    }

    private func fits(_ piece: Piece) -> Bool {
        switch piece {
        case .equals(let key, _):
            return fitsField(key, slot: "$eq")
        case .op(let key, let op):
            return fitsField(key, slot: op.slot)
        case .member(let m):
            return !clause.members.contains { existing in sameSlot(existing, m) }
        }
    }

    private func fitsField(_ key: String, slot: String) -> Bool {
        if case .field(let last)? = clause.members.last, last.key == key {
            return !operators(of: last).contains { $0.op.slot == slot }
        }
        return !clause.members.contains { if case .field(let f) = $0 { f.key == key } else { false } }
    }

    private func sameSlot(_ a: WhereMember, _ b: WhereMember) -> Bool {
        switch (a, b) {
        case (.compound(let x), .compound(let y)): return x.kind == y.kind
        case (.relatedTo, .relatedTo): return true
        default: return false
        }
    }

    mutating func finish(printer: inout Printer, className: String) -> WhereClause {
        if !rest.isEmpty {
            let at = clause.location.member("$and")
            var inner = Placement(clause: WhereClause(location: at.index(0)))
            for piece in rest { inner.place(piece) }
            let branch = inner.finish(printer: &printer, className: className)
            clause.members.append(.compound(Compound(kind: .and, branches: [Branch(clause: branch)], location: at)))
        }
        return clause
    }
}
