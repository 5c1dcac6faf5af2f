import QuarryCore

/// The kinds of non-null value a key path may reach: the value itself, or for an array or a
/// relation, its elements. The leaf semantics disagree only on some kinds (SQL reads strings
/// and numbers as dates next to a date; Parse equates a string with a pointer whose objectId
/// it is), so knowing which kinds cannot occur lets a translation stay short and exact.
struct ValueKinds: OptionSet, Hashable, Sendable {
    let rawValue: UInt16
    init(rawValue: UInt16) { self.rawValue = rawValue }

    static let number = ValueKinds(rawValue: 1 << 0)
    static let string = ValueKinds(rawValue: 1 << 1)
    static let date = ValueKinds(rawValue: 1 << 2)
    static let bool = ValueKinds(rawValue: 1 << 3)
    static let pointer = ValueKinds(rawValue: 1 << 4)
    static let object = ValueKinds(rawValue: 1 << 5)
    static let geoPoint = ValueKinds(rawValue: 1 << 6)
    static let polygon = ValueKinds(rawValue: 1 << 7)
    static let bytes = ValueKinds(rawValue: 1 << 8)
    static let file = ValueKinds(rawValue: 1 << 9)
    /// An element that is itself an array or a relation.
    static let collection = ValueKinds(rawValue: 1 << 10)

    static let all: ValueKinds = [
        .number, .string, .date, .bool, .pointer, .object, .geoPoint, .polygon,
        .bytes, .file, .collection,
    ]
    /// Values Parse equality matches with a plain objectId string (pointers and `__type: Object`).
    static let identities: ValueKinds = [.pointer, .object]

    /// The kind of one value; empty for null.
    init(of v: Value) {
        switch v {
        case .null: self = []
        case .bool: self = .bool
        case .int, .double: self = .number
        case .string: self = .string
        case .date: self = .date
        case .bytes: self = .bytes
        case .geoPoint: self = .geoPoint
        case .polygon: self = .polygon
        case .pointer: self = .pointer
        case .relation, .array: self = .collection
        case .file: self = .file
        case .object: self = .object
        }
    }

    /// The kinds a field of this type holds (elements, for an array or relation type).
    init(of type: FieldType?) {
        switch type {
        case nil, .mixed?: self = .all
        case .bool?: self = .bool
        case .number?: self = .number
        case .string?: self = .string
        case .date?: self = .date
        case .bytes?: self = .bytes
        case .geoPoint?: self = .geoPoint
        case .polygon?: self = .polygon
        case .file?: self = .file
        case .object?: self = .object
        case .pointer?: self = .pointer
        case .relation?: self = .pointer
        // An element type the schema has not seen (only nulls so far) could be anything.
        case .array(let element)?: self = element.map(Self.elementKinds) ?? .all
        }
    }

    /// The kinds of an array's elements of this type.
    private static func elementKinds(_ t: FieldType) -> ValueKinds {
        switch t {
        case .array, .relation: return .collection
        default: return ValueKinds(of: t)
        }
    }
}

/// What one operand may evaluate to on any object of a class: nil (missing or null), a single
/// value of one of `kinds`, or, when `multiValued`, an array or relation whose non-null elements
/// are of `kinds`. Without a schema anything is possible; with one, the data the schema
/// describes is assumed (a `Database` is its own schema).
struct ValueDomain: Hashable, Sendable {
    var multiValued: Bool
    var kinds: ValueKinds
    /// Whether the operand may be a single value rather than an array or relation (a path
    /// through an array always reaches an array).
    var maybeSingleValue = true

    static let anything = ValueDomain(multiValued: true, kinds: .all)

    /// The domain of a literal.
    init(literal v: Value) {
        switch v {
        case .array(let items):
            multiValued = true
            maybeSingleValue = false
            kinds = items.reduce(into: []) { $0.formUnion(ValueKinds(of: $1)) }
        case .relation:
            multiValued = true
            maybeSingleValue = false
            kinds = .pointer
        default:
            multiValued = false
            kinds = ValueKinds(of: v)
        }
    }

    init(multiValued: Bool, kinds: ValueKinds, maybeSingleValue: Bool = true) {
        self.multiValued = multiValued
        self.kinds = kinds
        self.maybeSingleValue = maybeSingleValue
    }

    /// The domain of a key path on objects of `className`. `objectId` at the top is always the
    /// object's own id string, whatever the schema says.
    static func of(_ path: FieldPath, in className: String?, schema: (any Schema)?) -> ValueDomain {
        if path.components == ["objectId"] { return ValueDomain(multiValued: false, kinds: .string) }
        guard let schema, var current = className, schema.hasClass(current) else { return .anything }
        // Crossing an array or relation maps the rest of the path over its elements.
        var crossed = false
        let names = path.components
        for (i, name) in names.enumerated() {
            guard let type = schema.fieldType(name, in: current) else { return .anything }
            if i == names.count - 1 { return last(type, crossed: crossed) }
            switch type {
            case .pointer(let target):
                current = target
            case .relation(let target), .array(of: .pointer(let target)?):
                crossed = true
                current = target
            case .geoPoint:
                // `coordinates.latitude` is a number; any other step into a point is missing.
                let axis = i == names.count - 2 && (names[i + 1] == "latitude" || names[i + 1] == "longitude")
                return ValueDomain(multiValued: crossed, kinds: axis ? .number : [], maybeSingleValue: !crossed)
            case .object, .array, .mixed:
                return .anything
            case .bool, .number, .string, .date, .bytes, .polygon, .file:
                // A step into a scalar finds nothing.
                return ValueDomain(multiValued: crossed, kinds: [], maybeSingleValue: !crossed)
            }
        }
        return .anything
    }

    /// The last field of a path. After a to-many crossing, arrays are spliced into the result
    /// one level deep, but Parse Relation values stay whole (the schema calls both `relation`).
    private static func last(_ type: FieldType, crossed: Bool) -> ValueDomain {
        switch type {
        case .relation:
            return ValueDomain(
                multiValued: true, kinds: crossed ? [.pointer, .collection] : .pointer, maybeSingleValue: false)
        case .array:
            return ValueDomain(multiValued: true, kinds: ValueKinds(of: type), maybeSingleValue: false)
        case .mixed:
            return ValueDomain(multiValued: true, kinds: .all, maybeSingleValue: !crossed)
        default:
            return ValueDomain(multiValued: crossed, kinds: ValueKinds(of: type), maybeSingleValue: !crossed)
        }
    }
}
