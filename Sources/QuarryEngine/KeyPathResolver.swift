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
/// A pointer is a value in its own right, whether or not its object is loaded; a path *through*
/// it is followed into the pointed-to record of the source, and through a dangling pointer
/// reaches nothing, except `objectId`, which is the pointer's own. An array or a relation maps
/// the rest of the step over its elements, flattening one level per crossing, as MongoDB reads
/// paths: an array nested in the array is not entered, and a numeric component (`t.0`) is the
/// element at that index.
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
        return .value(current)
    }

    /// One path component applied to a value.
    private func step(_ value: Value, _ name: String) -> Operand {
        switch value {
        case .pointer(let p):
            if name == "objectId" { return .value(.string(p.objectId)) }
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
            if let i = Self.arrayIndex(name), i < items.count { return .value(items[i]) }
            return .value(.array(mapStep(items, name)))
        case .relation(let className, let ids):
            return .value(.array(mapStep(ids.map { .pointer(Pointer(className: className, objectId: $0)) }, name)))
        default:
            return .missing
        }
    }

    /// `0`, `1`, … (no sign, no leading zero): a path component that indexes an array.
    private static func arrayIndex(_ name: String) -> Int? {
        guard let first = name.utf8.first, first != UInt8(ascii: "0") || name.utf8.count == 1,
            name.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(name)
    }

    /// Maps a step over elements; elements without the field drop out, and so do arrays nested
    /// in the array; array results are spliced in (one level of flattening for this crossing).
    private func mapStep(_ items: [Value], _ name: String) -> [Value] {
        var out: [Value] = []
        for item in items {
            if case .array = item { continue }
            guard case .value(let v) = step(item, name) else { continue }
            if case .array(let inner) = v { out.append(contentsOf: inner) } else { out.append(v) }
        }
        return out
    }

    // MARK: - MongoDB's reading of paths through arrays

    /// Whether the path, followed through an array, meets an element object (or pointer) that
    /// lacks the rest of it: MongoDB counts that element as null, so `{"p.b": null}` matches
    /// `{"p": [{}]}` (a scalar element is no object and counts for nothing).
    func missesInsideArray(_ path: FieldPath, in record: Record) -> Bool {
        guard path.components.count > 1, let first = record[path.first] else { return false }
        return misses(first, path.components.dropFirst(), insideArray: false)
    }

    private func misses(_ value: Value, _ components: ArraySlice<String>, insideArray: Bool) -> Bool {
        guard let name = components.first else { return false }
        switch value {
        case .array(let items):
            if let i = Self.arrayIndex(name), i < items.count {
                return misses(items[i], components.dropFirst(), insideArray: insideArray)
            }
            return items.contains { item in
                switch item {
                case .object, .pointer: return misses(item, components, insideArray: true)
                default: return false
                }
            }
        case .relation:
            return (elements(value) ?? []).contains { misses($0, components, insideArray: true) }
        default:
            guard case .value(let next) = step(value, name) else { return insideArray }
            return misses(next, components.dropFirst(), insideArray: insideArray)
        }
    }

    /// Whether the path reaches any value, null included, counting each array element it
    /// maps over: `p.b` reaches nothing in `{"p": []}` or `{"p": [{}]}` although the mapped
    /// result is an (empty) array.
    func reachesAnything(_ path: FieldPath, in record: Record) -> Bool {
        guard let first = record[path.first] else { return false }
        return reaches(first, path.components.dropFirst())
    }

    private func reaches(_ value: Value, _ components: ArraySlice<String>) -> Bool {
        guard let name = components.first else { return true }
        switch value {
        case .array(let items):
            if let i = Self.arrayIndex(name), i < items.count { return reaches(items[i], components.dropFirst()) }
            return items.contains { item in
                if case .array = item { return false }
                return reaches(item, components)
            }
        case .relation:
            return (elements(value) ?? []).contains { reaches($0, components) }
        default:
            guard case .value(let next) = step(value, name) else { return false }
            return reaches(next, components.dropFirst())
        }
    }

    /// The elements of a collection value: an array's items, a relation's pointers.
    /// Nil for anything that is not a collection.
    func elements(_ value: Value) -> [Value]? {
        switch value {
        case .array(let items): return items
        case .relation(let className, let ids):
            return ids.map { .pointer(Pointer(className: className, objectId: $0)) }
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
