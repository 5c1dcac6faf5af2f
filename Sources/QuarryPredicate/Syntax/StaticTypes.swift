import QuarryCore

/// What the parser can tell about an operand without data: enough to reject `ANY 5 > 3`,
/// `age ==[c] 5` or `name BEGINSWITH 5` at the place they are written.
package enum StaticKind: Equatable {
    case number, string, bool, null, date, list

    package var isScalar: Bool { self != .list }

    var article: String {
        switch self {
        case .number: return "a number"
        case .string: return "a string"
        case .bool: return "a boolean"
        case .null: return "NULL"
        case .date: return "a date"
        case .list: return "a collection"
        }
    }

    package init?(_ v: Value) {
        switch v {
        case .int, .double: self = .number
        case .string: self = .string
        case .bool: self = .bool
        case .null: self = .null
        case .date: self = .date
        case .array: self = .list
        default: return nil
        }
    }
}

extension Value {
    /// "a number", "a string", … for messages.
    var article: String {
        if let k = StaticKind(self) { return k.article }
        switch self {
        case .pointer: return "a pointer"
        case .object: return "an object"
        default: return "a \(typeName)"
        }
    }
}

extension FieldType {
    /// Whether ANY/ALL/NONE can range over the field (unknown and mixed types get the benefit
    /// of the doubt).
    var isCollectionLike: Bool {
        switch self {
        case .array, .relation, .mixed, .object: return true
        default: return false
        }
    }
}

extension Lowering {
    func staticKind(_ node: ExprNode) -> StaticKind? {
        switch node.strippingParentheses.kind {
        case .integer, .real: return .number
        case .negate(let x):
            switch x.kind {
            case .integer, .real: return .number
            default: return nil
            }
        case .string, .percent: return .string
        case .bool: return .bool
        case .null: return .null
        case .list: return .list
        case .argument(let spec, let index):
            switch spec.kind {
            case .integer, .real: return .number
            case .keyPath: return nil
            case .object:
                guard index < arguments.count, case .value(let v) = arguments[index] else { return nil }
                return StaticKind(v)
            }
        case .variable(let name):
            guard !scope.contains(name), let v = variables?[name] else { return nil }
            return StaticKind(v)
        default:
            return nil
        }
    }

    /// The key path an operand is, when it is nothing but one (`a.b`, `%K`, `SELF.a`).
    func plainKeyPath(_ node: ExprNode) -> FieldPath? {
        switch node.strippingParentheses.kind {
        case .identifier(let name): return FieldPath([name])
        case .member(let base, let names):
            let rest = FieldPath(names.map(\.text))
            if case .selfRef = base.strippingParentheses.kind { return rest }
            return plainKeyPath(base)?.appending(rest)
        case .argument(let spec, let index) where spec.kind == .keyPath:
            return keyPathArgument(index)
        case .memberArgument(let base, _, let index, _):
            let rest = keyPathArgument(index)
            if case .selfRef = base.strippingParentheses.kind { return rest }
            guard let head = plainKeyPath(base), let rest else { return nil }
            return head.appending(rest)
        default:
            return nil
        }
    }

    /// The plain key path (no collection operator) a `%K` argument is bound to.
    private func keyPathArgument(_ index: Int) -> FieldPath? {
        switch arguments[index] {
        case .keyPath(let s), .value(.string(let s)):
            let parts = s.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            return parts.contains(where: { $0.isEmpty || $0.hasPrefix("@") }) ? nil : FieldPath(parts)
        default: return nil
        }
    }

    /// The schema's type for a path from the queried class, following pointers; a path that
    /// crosses a to-many relation or array is a collection. Nil when unknown.
    func fieldType(_ path: FieldPath) -> FieldType? {
        guard let schema, var cls = className else { return nil }
        var crossedCollection = false
        for (i, name) in path.components.enumerated() {
            guard let t = schema.fieldType(name, in: cls) else { return nil }
            if i == path.count - 1 { return crossedCollection ? .array(of: t) : t }
            switch t {
            case .pointer(let target): cls = target
            case .relation(let target): cls = target; crossedCollection = true
            default: return nil
            }
        }
        return nil
    }

    /// A key the schema knows to hold a single string: CONTAINS on it is a substring test.
    func isStringField(_ e: Expr) -> Bool {
        guard case .key(let path) = e else { return false }
        return fieldType(path) == .string
    }
}
