import QuarryCore

// What a leaf's operands may be: their domains, and the constants they are compared with.

extension SemanticsConverter {

    /// What an operand may evaluate to.
    func domain(_ e: Expr, _ scope: Scope) -> ValueDomain {
        switch e {
        case .key(let path): return fieldDomain(path, in: scope.className)
        case .variable(let name): return scope.variables[name] ?? .anything
        case .literal(let v): return ValueDomain(literal: v)
        case .list(let items):
            if let v = Self.constantValue(.list(items)) { return ValueDomain(literal: v) }
            return .anything
        default: return .anything
        }
    }

    /// What a key path holds: as the schema says, else as the query implies (when translating
    /// with assumptions), else anything. `objectId` at the top is always the id string.
    func fieldDomain(_ path: FieldPath, in className: String?) -> ValueDomain {
        // The objectId of a pointer is its id string, whatever else the class holds.
        if path.count > 1, path.components.last == "objectId" {
            let owner = fieldDomain(FieldPath(Array(path.components.dropLast())), in: className)
            if !owner.kinds.isEmpty, owner.kinds.isSubset(of: .pointer) {
                return ValueDomain(
                    multiValued: owner.multiValued, kinds: .string, maybeSingleValue: owner.maybeSingleValue)
            }
        }
        if schema == nil, path.components != ["objectId"], let d = assumptions?.domain(path, in: className) { return d }
        return ValueDomain.of(path, in: className, schema: schema)
    }

    /// The value of an operand written in the query, or of a row-independent expression with
    /// a date value; nil for anything read from the data.
    static func constant(_ e: Expr) -> SQLCoercion.Constant? {
        if let v = constantValue(e) { return .value(v) }
        switch e {
        case .function(.now, let args) where args.isEmpty: return .date(e)
        case .function(.relativeTime, let args) where args.count == 1:
            if case .literal = args[0] { return .date(e) }
            return nil
        default: return nil
        }
    }

    static func constantValue(_ e: Expr) -> Value? {
        switch e {
        case .literal(let v): return v
        case .list(let items):
            var values: [Value] = []
            for item in items {
                guard let v = constantValue(item) else { return nil }
                values.append(v)
            }
            return .array(values)
        default: return nil
        }
    }

    /// A comparison read as "subject op constant", swapping a constant on the left to the right.
    /// Nil when neither side is a constant.
    static func oriented(_ l: Expr, _ op: ComparisonOperator, _ r: Expr)
        -> (subject: Expr, op: ComparisonOperator, constant: SQLCoercion.Constant)?
    {
        if let y = constant(r) { return (l, op, y) }
        if let y = constant(l) { return (r, op.swapped, y) }
        return nil
    }

    /// The elements of a constant collection (an IN list), nil for anything else.
    static func listValues(_ e: Expr) -> [Value]? {
        guard case .array(let items)? = constantValue(e) else { return nil }
        return items
    }

    /// The bounds of an `.sql` BETWEEN; nil bounds when one is null (the test is then false).
    func sqlBounds(_ l: Leaf, _ lo: Expr, _ hi: Expr) throws(Diagnostic) -> (Value?, Value?) {
        guard case .value(let lower)? = Self.constant(lo), case .value(let upper)? = Self.constant(hi) else {
            throw inexpressible(l, "the bounds are not both values")
        }
        if lower.isNull || upper.isNull { return (nil, nil) }
        guard Self.family(lower) == Self.family(upper), Self.family(lower) != nil else {
            throw inexpressible(l, "the bounds are not two numbers, strings or dates")
        }
        return (lower, upper)
    }

    /// Numbers, strings and dates compare within their own kind (and SQL's date coercion joins
    /// dates with the other two).
    static func family(_ v: Value) -> String? {
        switch v {
        case .int, .double: return "number"
        case .string: return "string"
        case .date: return "date"
        default: return nil
        }
    }
}

extension Value {
    /// The object a pointer or a `__type: Object` value stands for in equality (the engine's
    /// rule), which Parse equality also matches with a plain objectId string.
    var translationIdentity: String? {
        switch self {
        case .pointer(let p): return p.objectId
        case .object(let fields):
            guard case .string("Object")? = fields["__type"], case .string? = fields["className"],
                case .string(let id)? = fields["objectId"]
            else { return nil }
            return id
        default: return nil
        }
    }

    /// Whether ordered comparisons accept this value at all (`Value.compareOrdered`).
    var isOrderable: Bool {
        switch self {
        case .int, .double, .string, .date, .bool, .bytes: return true
        default: return false
        }
    }
}
