import QuarryCore

extension Evaluation {
    /// A result row as the query asks for it: included pointers embedded, then the `keys`
    /// projection and the `excludeKeys` removals applied (dot paths reach into embedded
    /// objects). Fields keep their stored order.
    func shape(_ record: Record, _ query: Query) -> Record {
        // Nothing to include or remove: the record as it is, not rebuilt.
        if query.includes.isEmpty, query.keys == nil, query.excludeKeys.isEmpty { return record }
        var fields = record.fields
        for path in query.includes { include(path.components[...], in: &fields) }
        if let keys = query.keys {
            fields = FieldSelection(keys).restrict(fields, keeping: Self.alwaysKept)
        }
        for path in query.excludeKeys { exclude(path.components[...], from: &fields) }
        return Record(
            objectId: record.objectId,
            fields: record.fieldOrder.compactMap { name in
                fields[name].map { (name, $0) }
            })
    }

    /// Fields a `keys` projection never removes: the system fields, and what identifies an
    /// embedded object.
    private static let alwaysKept: Set<String> = ["objectId", "createdAt", "updatedAt", "__type", "className"]

    /// Replaces the pointer (or the pointers of an array) at `path` with the embedded object,
    /// including every level on the way (`post.author` embeds the post, then its author).
    /// Dangling pointers and relations stay as they are.
    private func include(_ path: ArraySlice<String>, in fields: inout [String: Value]) {
        guard let name = path.first, let value = fields[name] else { return }
        fields[name] = including(path.dropFirst(), in: value)
    }

    private func including(_ rest: ArraySlice<String>, in value: Value) -> Value {
        switch value {
        case .pointer(let p):
            guard let target = source.resolve(p),
                case .object(var fields) = Value.embedded(target, className: p.className)
            else { return value }
            include(rest, in: &fields)
            return .object(fields)
        case .object(var fields):
            include(rest, in: &fields)
            return .object(fields)
        case .array(let items):
            return .array(items.map { including(rest, in: $0) })
        default:
            return value
        }
    }

    private func exclude(_ path: ArraySlice<String>, from fields: inout [String: Value]) {
        guard let name = path.first else { return }
        if path.count == 1 {
            fields[name] = nil
        } else if let value = fields[name] {
            fields[name] = excluding(path.dropFirst(), from: value)
        }
    }

    private func excluding(_ rest: ArraySlice<String>, from value: Value) -> Value {
        switch value {
        case .object(var fields):
            exclude(rest, from: &fields)
            return .object(fields)
        case .array(let items):
            return .array(items.map { excluding(rest, from: $0) })
        default:
            return value
        }
    }
}

/// The fields a `keys` projection names, as a tree: `post.title` keeps `post` and, inside
/// the embedded post, only `title`; `post` alone keeps the whole post.
indirect enum FieldSelection {
    case whole
    case fields([String: FieldSelection])

    init(_ keys: [FieldPath]) {
        self = .fields([:])
        for key in keys { insert(key.components[...]) }
    }

    private mutating func insert(_ path: ArraySlice<String>) {
        guard case .fields(var children) = self, let name = path.first else { return }
        if path.count == 1 {
            children[name] = .whole
        } else {
            var child = children[name] ?? .fields([:])
            child.insert(path.dropFirst())
            children[name] = child
        }
        self = .fields(children)
    }

    /// `fields` with only the selected names (and `keeping`) left; selections below a name
    /// apply to the embedded objects it holds.
    func restrict(_ fields: [String: Value], keeping: Set<String>) -> [String: Value] {
        guard case .fields(let children) = self else { return fields }
        var out: [String: Value] = [:]
        for (name, value) in fields {
            if let child = children[name] {
                out[name] = child.restrict(value, keeping: keeping)
            } else if keeping.contains(name) {
                out[name] = value
            }
        }
        return out
    }

    private func restrict(_ value: Value, keeping: Set<String>) -> Value {
        switch value {
        case .object(let fields): return .object(restrict(fields, keeping: keeping))
        case .array(let items): return .array(items.map { restrict($0, keeping: keeping) })
        default: return value
        }
    }
}
