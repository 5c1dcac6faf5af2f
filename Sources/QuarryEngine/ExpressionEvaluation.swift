import QuarryCore

extension Evaluation {
    /// The value of an expression for the object in `scope`.
    func evaluate(_ expr: Expr, _ scope: Scope) throws(Diagnostic) -> Operand {
        switch expr {
        case .literal(let v):
            return .value(v)
        case .key(let path):
            return resolver.resolve(path, in: scope.record)
        case .variable(let name):
            return .value(try variable(name, scope))
        case .evaluatedObject:
            return .value(.embedded(scope.record, className: scope.className))
        case .member(let base, let path):
            guard case .value(let v) = try evaluate(base, scope) else { return .missing }
            return resolver.resolve(path.components, from: v)
        case .list(let items):
            var values: [Value] = []
            for item in items { values.append(try evaluate(item, scope).value ?? .null) }
            return .value(.array(values))
        case .arithmetic(let op, let l, let r):
            let a = try evaluate(l, scope), b = try evaluate(r, scope)
            guard case .value(let x) = a, case .value(let y) = b else { return .value(.null) }
            return .value(Arithmetic.apply(op, x, y))
        case .negate(let e):
            return .value(Arithmetic.negate(try evaluate(e, scope).value ?? .null))
        case .function(let f, let args):
            var operands: [Operand] = []
            for arg in args { operands.append(try evaluate(arg, scope)) }
            return .value(try call(f, operands))
        case .aggregate(let op, let e):
            return .value(aggregate(op, resolver.collection(try evaluate(e, scope))))
        case .index(let e, let spec):
            return try index(try evaluate(e, scope), spec, scope)
        case .subquery(let collection, let name, let predicate):
            var kept: [Value] = []
            var inner = scope
            for element in resolver.collection(try evaluate(collection, scope)) {
                inner.locals[name] = element
                if try evaluate(predicate, inner) { kept.append(element) }
            }
            return .value(.array(kept))
        case .cast(let e, let type):
            return .value(Cast.apply(try evaluate(e, scope).value ?? .null, to: type))
        }
    }

    private func aggregate(_ op: AggregateOperator, _ items: [Value]) -> Value {
        switch op {
        case .count: return Statistics.count(items)
        case .sum: return Statistics.sum(items)
        case .avg: return Statistics.average(items)
        case .min: return Statistics.extreme(items, largest: false)
        case .max: return Statistics.extreme(items, largest: true)
        case .distinctUnionOfObjects: return Statistics.distinct(items)
        case .unionOfObjects: return Statistics.union(items)
        }
    }

    /// `[FIRST]`, `[LAST]`, `[SIZE]` and `[n]` on a collection; `['key']` on an object or a
    /// pointer. Out of range, or not a collection: missing.
    private func index(_ base: Operand, _ spec: IndexSpec, _ scope: Scope) throws(Diagnostic) -> Operand {
        guard case .value(let v) = base else { return .missing }
        let items = resolver.elements(v)
        switch spec {
        case .first: return items?.first.map(Operand.value) ?? .missing
        case .last: return items?.last.map(Operand.value) ?? .missing
        case .size: return items.map { .value(.int(Int64($0.count))) } ?? .missing
        case .at(let e):
            switch try evaluate(e, scope).value {
            case .string(let key)?:
                return resolver.resolve([key], from: v)
            case let position?:
                guard let items, let d = position.numericValue, let i = Int(exactly: d),
                    items.indices.contains(i)
                else { return .missing }
                return .value(items[i])
            case nil:
                return .missing
            }
        }
    }
}
