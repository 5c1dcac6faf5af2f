import QuarryCore
import QuarryData

/// Lowers a `QuerySpec` (from the JSON decoder or the builder) into a Core `Query`, with Parse /
/// MongoDB semantics in every leaf (`.document`) and the rules of the chosen profile. Reports
/// every problem it finds, each with its Parse code and JSON path.
struct Lowerer {
    let rules: ProfileRules
    let limits: Limits
    var problems = Problems()
    /// Inner queries lowered so far, against `Limits.maxSubqueries`.
    var subqueries = 0
    /// The class of each query being lowered, innermost last.
    private var classes: [String] = []
    /// Told of each literal the lowering puts into the IR as it was written, while a text
    /// template is made (docs/ARCHITECTURE.md#text-templates).
    var recorder: JSONParameterRecorder?

    init(profile: Profile, limits: Limits) {
        self.rules = ProfileRules(profile: profile)
        self.limits = limits
    }

    /// The query, or every diagnostic found.
    static func lower(
        _ spec: QuerySpec, profile: Profile, limits: Limits, recording recorder: JSONParameterRecorder? = nil
    ) throws(Diagnostic) -> Query {
        var lowerer = Lowerer(profile: profile, limits: limits)
        lowerer.recorder = recorder
        let query = lowerer.query(spec, inner: false, depth: 0, subqueryDepth: 0)
        try lowerer.problems.check()
        return query
    }

    // MARK: - Queries

    mutating func query(_ spec: QuerySpec, inner: Bool, depth: Int, subqueryDepth: Int) -> Query {
        if !Names.isValidClassName(spec.className.value) {
            problems.add(
                .json.className, "'\(spec.className.value)' is not a valid class name",
                at: spec.className.location)
        }
        classes.append(spec.className.value)
        defer { classes.removeLast() }
        var nears: [SortKey] = []
        let predicate = clause(
            spec.whereClause, depth: depth, subqueryDepth: subqueryDepth,
            inCompound: false, nears: &nears)
        var query = Query(className: spec.className.value, predicate: predicate, profile: rules.profile)
        if let order = spec.order, !order.value.isEmpty {
            query.order = sortKeys(order)
        } else {
            // Parse sorts `$nearSphere` results nearest first unless an explicit order is given.
            query.order = nears
        }
        if let skip = spec.skip { query.skip = rules.skip(skip, problems: &problems) }
        if let limit = spec.limit {
            query.limit = rules.limit(limit, inner: inner, counting: spec.count, problems: &problems)
        }
        if inner {
            for (name, location) in spec.shapingParameters where !["order", "skip", "limit"].contains(name) {
                problems.add(
                    .json.subquery,
                    "an inner query takes where, limit, skip and order; '\(name)' "
                        + "would have no effect", at: location)
            }
            if spec.count {
                problems.add(.json.subquery, "an inner query cannot count", at: spec.whereClause.location)
            }
            return query
        }
        projection(spec, into: &query)
        query.count = spec.count
        return query
    }

    /// `keys`, `excludeKeys` and `include` of an outer query.
    private mutating func projection(_ spec: QuerySpec, into query: inout Query) {
        if let keys = spec.keys {
            var selected: [FieldPath] = []
            for (i, key) in keys.value.enumerated() {
                if rules.allowsInvertedKeys, key.hasPrefix("-") {
                    if let path = keyPath(String(key.dropFirst()), at: keys.location.index(i)) {
                        query.excludeKeys.append(path)
                    }
                } else if let path = keyPath(key, at: keys.location.index(i)) {
                    selected.append(path)
                }
            }
            // Only inverted keys: everything else is returned.
            if !selected.isEmpty || !keys.value.contains(where: { rules.allowsInvertedKeys && $0.hasPrefix("-") }) {
                query.keys = selected
            }
        }
        if let excluded = spec.excludeKeys {
            for (i, key) in excluded.value.enumerated() {
                if let path = keyPath(key, at: excluded.location.index(i)) { query.excludeKeys.append(path) }
            }
        }
        if let includes = spec.includes {
            for (i, key) in includes.value.enumerated() {
                if key == "*" {
                    problems.add(
                        .json.include,
                        "include=* (every pointer field) needs a schema; list the "
                            + "pointer fields to include instead", at: includes.location.index(i))
                } else if let path = keyPath(key, at: includes.location.index(i)) {
                    query.includes.append(path)
                }
            }
        }
    }

    private mutating func sortKeys(_ order: Located<[OrderEntry]>) -> [SortKey] {
        var out: [SortKey] = []
        for (i, entry) in order.value.enumerated() {
            let location = order.location.index(i)
            if entry.key == "$score" {
                problems.add(
                    .json.order,
                    "'$score' sorts by text-search relevance, which Quarry does not "
                        + "compute; $text only filters", at: location)
                continue
            }
            if let path = keyPath(entry.key, at: location) {
                out.append(.key(path, entry.descending ? .descending : .ascending))
            }
        }
        return out
    }

    mutating func keyPath(_ key: String, at location: Location) -> FieldPath? {
        guard Names.isValidKey(key) else {
            problems.add(
                .json.keyName,
                "invalid key name '\(key)'; a key starts with a letter and holds "
                    + "letters, digits, '_' and '.'", at: location)
            return nil
        }
        return FieldPath(key)
    }

    // MARK: - Where objects

    /// A where object: the AND of its members. `$and` branches are spliced into it.
    mutating func clause(
        _ c: WhereClause, depth: Int, subqueryDepth: Int, inCompound: Bool,
        nears: inout [SortKey]
    ) -> Filter {
        if depth > limits.maxNestingDepth {
            problems.add(
                .limit.nesting, "the query nests deeper than \(limits.maxNestingDepth) levels",
                at: c.location)
            return .constant(false)
        }
        var conjuncts: [Filter] = []
        for member in c.members {
            switch member {
            case .field(let entry):
                conjuncts += field(
                    entry, subqueryDepth: subqueryDepth, depth: depth,
                    inCompound: inCompound, nears: &nears)
            case .compound(let compound):
                if let p = self.compound(compound, depth: depth, subqueryDepth: subqueryDepth, nears: &nears) {
                    if compound.kind == .and { conjuncts += Lowerer.conjuncts(of: p) } else { conjuncts.append(p) }
                }
            case .relatedTo(let object, let key, _):
                if !Names.isValidClassName(object.value.className) {
                    problems.add(
                        .json.pointer, "'\(object.value.className)' is not a valid class name",
                        at: object.location)
                }
                if key.value.isEmpty {
                    problems.add(
                        .json.keyName, "$relatedTo needs the name of the relation field",
                        at: key.location)
                }
                let related = Filter.leaf(.relatedTo(object.value, key: key.value), .document)
                conjuncts.append(object.location.range.map(related.locating) ?? related)
            }
        }
        return Lowerer.conjunction(conjuncts)
    }

    static func conjunction(_ ps: [Filter]) -> Filter {
        switch ps.count {
        case 0: return .constant(true)
        case 1: return ps[0]
        default: return .and(ps)
        }
    }

    static func conjuncts(of p: Filter) -> [Filter] {
        switch p {
        case .constant(true): return []
        case .and(let ps): return ps
        default: return [p]
        }
    }

    private mutating func compound(
        _ c: Compound, depth: Int, subqueryDepth: Int,
        nears: inout [SortKey]
    ) -> Filter? {
        if c.branches.isEmpty {
            problems.add(
                .json.compound, "\(c.kind.rawValue) needs an array of at least one where object",
                at: c.location)
            return nil
        }
        if depth + 1 > limits.maxNestingDepth {
            problems.add(
                .limit.nesting, "the query nests deeper than \(limits.maxNestingDepth) levels",
                at: c.location)
            return nil
        }
        if c.branches.count > limits.maxInListSize {
            problems.add(
                .limit.inList,
                "\(c.kind.rawValue) has \(c.branches.count) subqueries; at most "
                    + "\(limits.maxInListSize) are allowed", at: c.location)
            return nil
        }
        var branches: [Filter] = []
        for branch in c.branches {
            checkSubquery(branch, of: c)
            var branchNears: [SortKey] = []
            let p = clause(
                branch.clause, depth: depth + 1, subqueryDepth: subqueryDepth, inCompound: true,
                nears: &branchNears)
            // Only the conjunctive `$and` keeps near's ordering; a near under OR/NOR orders nothing.
            if c.kind == .and { nears += branchNears }
            branches.append(p)
        }
        switch c.kind {
        case .and: return Lowerer.conjunction(branches.flatMap(Lowerer.conjuncts(of:)))
        case .or: return .or(branches)
        case .nor:
            let inner = branches.count == 1 ? branches[0] : .or(branches)
            switch inner {
            case .constant(let b): return .constant(!b)
            // Document negation is logical NOT: `$nor` of one test is that test negated.
            case .leaf(var l):
                l.negated.toggle()
                return .leaf(l)
            default: return .not(inner)
            }
        }
    }

    /// Builder subqueries of a compound: same class, and no result-shaping parameters, which a
    /// filter cannot honour (hosted Parse: "non-filtering constraints … in the subqueries of the
    /// compound query" are not supported).
    private mutating func checkSubquery(_ branch: Branch, of c: Compound) {
        if let className = branch.className, let outer = classes.last, className.value != outer {
            problems.add(
                .json.compoundSubquery,
                "a subquery of \(c.kind.rawValue) queries '\(className.value)' "
                    + "but the compound query is on '\(outer)'; all subqueries must share the class",
                at: className.location)
        }
        for (name, location) in branch.shaping {
            problems.add(
                .json.compoundSubquery,
                "a subquery of \(c.kind.rawValue) cannot set '\(name)'; set it "
                    + "on the compound query instead", at: location)
        }
    }
}
