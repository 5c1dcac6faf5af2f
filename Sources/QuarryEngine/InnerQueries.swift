import QuarryCore

extension Evaluation {
    /// The rows an inner query (`inQuery`, `select`) contributes, computed once per run: its
    /// matches in its order, after its skip and its limit. The limit follows the inner query's
    /// profile (`defaultInnerLimit` when it sets none, capped at `maxInnerLimit`); more rows than
    /// `Limits.maxInnerRows` is an error in every profile.
    func innerResults(of query: Query) throws(Diagnostic) -> InnerObjects {
        if let rows = innerResults[query] { return rows }
        let rows = try page(try sorted(try filter(query), query), skip: query.skip, limit: innerLimit(query))
        guard rows.count <= limits.maxInnerRows else {
            throw Diagnostic(
                .limit.innerRows,
                "the inner query on \(query.className) yields \(rows.count) rows, more than the "
                    + "limit of \(limits.maxInnerRows); give it a limit or a narrower condition")
        }
        innerResults[query] = .records(rows)
        return .records(rows)
    }

    func innerLimit(_ query: Query) -> Int? {
        guard let own = query.limit else { return query.profile.defaultInnerLimit }
        return query.profile.maxInnerLimit.map { Swift.min(own, $0) } ?? own
    }

    /// The objects an `inQuery` inner query yields, as pointer values.
    func innerPointers(of query: Query) throws(Diagnostic) -> Set<Value> {
        if let set = innerPointerSets[query] { return set }
        let objects = try innerResults(of: query)
        let set = Set(
            objects.indices.map {
                Value.pointer(Pointer(className: query.className, objectId: objects.objectId(at: $0)))
            })
        innerPointerSets[query] = set
        return set
    }

    /// Every non-null value `innerKey` reaches in the inner query's rows (array and relation
    /// elements one by one), as a set for membership tests.
    func innerValues(of query: Query, at innerKey: FieldPath) throws(Diagnostic) -> InnerValues {
        let key = InnerValuesKey(query: query, innerKey: innerKey)
        if let set = innerValueSets[key] { return set }
        var values: [Value] = []
        let objects = try innerResults(of: query)
        for i in objects.indices {
            values.append(contentsOf: sqlValues(resolver.resolve(innerKey, in: objects.record(at: i, for: innerKey))))
        }
        let set = InnerValues(values)
        innerValueSets[key] = set
        return set
    }
}

struct InnerValuesKey: Hashable {
    let query: Query
    let innerKey: FieldPath
}

/// The values of a `select` inner query, with the equality of `ValueComparison.equal` (no
/// string options): Value equality, pointers by identity, and under `.document` a plain
/// string equal to a pointer with that objectId.
struct InnerValues {
    private var values = Set<Value>()
    private var pointerIds = Set<String>()
    private var strings = Set<String>()

    init(_ items: [Value]) {
        for item in items {
            if let identity = item.objectIdentity {
                values.insert(.pointer(identity))
                pointerIds.insert(identity.objectId)
            } else {
                values.insert(item)
                if case .string(let s) = item { strings.insert(s) }
            }
        }
    }

    func contains(_ v: Value, semantics: LeafSemantics) -> Bool {
        if let identity = v.objectIdentity {
            return values.contains(.pointer(identity))
                || (semantics == .document && strings.contains(identity.objectId))
        }
        if values.contains(v) { return true }
        if semantics == .document, case .string(let s) = v { return pointerIds.contains(s) }
        return false
    }
}
