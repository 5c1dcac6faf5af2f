import QuarryCore

/// What an expression evaluates to: a value (possibly `.null`), or nothing at all when a key
/// path ends at a field the object does not have.
enum Operand: Equatable {
    case missing
    case value(Value)

    /// Missing or null: "nil" for most leaves.
    var isNil: Bool {
        switch self {
        case .missing, .value(.null): return true
        case .value: return false
        }
    }

    var value: Value? {
        if case .value(let v) = self { return v }
        return nil
    }
}

/// Follows key paths through objects, pointers, arrays and relations (docs/SEMANTICS.md#key-paths).
/// A pointer is followed into the pointed-to record of the source; an array or a relation maps the
/// rest of the step over its elements, flattening one level per crossing; a pointer whose record
/// does not exist (dangling) is null.
struct KeyPathResolver {
    let source: any RecordSource

    /// The value at `path`, starting at a stored object.
    func resolve(_ path: FieldPath, in record: Record) -> Operand {
        guard let first = record[path.first] else { return .missing }
        return resolve(path.components.dropFirst(), from: first)
    }

    /// The value at `components`, starting at any value (a variable, SELF, a function result).
    func resolve<C: Collection<String>>(_ components: C, from start: Value) -> Operand {
        var current = start
        for name in components {
            guard case .value(let next) = step(current, name) else { return .missing }
            current = next
        }
        return .value(live(current))
    }

    /// One path component applied to a value.
    private func step(_ value: Value, _ name: String) -> Operand {
        switch value {
        case .pointer(let p):
            return source.field(name, of: p).map(Operand.value) ?? .missing
        case .object(let fields):
            return fields[name].map(Operand.value) ?? .missing
        case .geoPoint(let g):
            switch name {
            case "latitude": return .value(.double(g.latitude))
            case "longitude": return .value(.double(g.longitude))
            default: return .missing
            }
        case .array(let items):
            return .value(.array(mapStep(items, name)))
        case .relation(let className, let ids):
            return .value(.array(mapStep(ids.map { .pointer(Pointer(className: className, objectId: $0)) }, name)))
        default:
            return .missing
        }
    }

    /// Maps a step over elements; elements without the field drop out, array results are
    /// spliced in (one level of flattening for this crossing).
    private func mapStep(_ items: [Value], _ name: String) -> [Value] {
        var out: [Value] = []
        for item in items {
            guard case .value(let v) = step(item, name) else { continue }
            if case .array(let inner) = v { out.append(contentsOf: inner) } else { out.append(v) }
        }
        return out
    }

    /// A reached value with dangling pointers (also as array elements) turned into null.
    func live(_ value: Value) -> Value {
        switch value {
        case .pointer(let p): return source.contains(p) ? value : .null
        case .array(let items):
            guard items.contains(where: { if case .pointer = $0 { return true } else { return false } }) else {
                return value
            }
            return .array(items.map(live))
        default: return value
        }
    }

    /// The elements of a collection value: an array's items, a relation's live pointers.
    /// Nil for anything that is not a collection.
    func elements(_ value: Value) -> [Value]? {
        switch value {
        case .array(let items): return items
        case .relation(let className, let ids):
            return ids.map { live(.pointer(Pointer(className: className, objectId: $0))) }
        default: return nil
        }
    }

    /// The elements of an operand seen as a collection (quantifiers, aggregates, IN): nil is
    /// empty, a value that is not a collection is a one-element collection.
    func collection(_ operand: Operand) -> [Value] {
        guard case .value(let v) = operand, !v.isNull else { return [] }
        return elements(v) ?? [v]
    }
}

extension Value {
    /// The object a pointer or an embedded Parse object (`__type: Object`, as SELF and
    /// included objects are represented) stands for; nil for other values.
    var objectIdentity: Pointer? {
        switch self {
        case .pointer(let p): return p
        case .object(let fields):
            guard case .string("Object")? = fields["__type"], case .string(let c)? = fields["className"],
                case .string(let id)? = fields["objectId"]
            else { return nil }
            return Pointer(className: c, objectId: id)
        default: return nil
        }
    }

    /// A stored object in Parse's embedded form: `__type: Object`, className, objectId, fields.
    static func embedded(_ record: Record, className: String) -> Value {
        var fields = record.fields
        fields["__type"] = .string("Object")
        fields["className"] = .string(className)
        fields["objectId"] = .string(record.objectId)
        return .object(fields)
    }
}
