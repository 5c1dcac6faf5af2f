/// One stored object: its id and its fields, in the order they were written.
public struct Record: Hashable, Sendable {
    public var objectId: String
    /// Every field except `objectId`, including `createdAt` / `updatedAt` when present.
    public var fields: [String: Value]
    /// Field names in insertion order, for output that reads like the input.
    public var fieldOrder: [String]

    public init(objectId: String, fields: [(String, Value)]) {
        self.objectId = objectId
        // Sized once: growing a dictionary field by field rehashed it three times per record.
        var dict = Record.emptyFields(room: fields.count)
        var order: [String] = []
        order.reserveCapacity(fields.count)
        for (k, v) in fields where k != "objectId" {
            if dict.updateValue(v, forKey: k) == nil { order.append(k) }
        }
        self.fields = dict
        self.fieldOrder = order
    }

    /// An empty fields dictionary with room for `count` fields, the storage
    /// `Dictionary(minimumCapacity: count)` would allocate, as a copy of one kept here: the copy's
    /// storage is allocated through metadata the binary holds, where `Dictionary(minimumCapacity:)`,
    /// not specialized where it is called, has the runtime look it up every time (about 800
    /// instructions a record, docs/STORAGE.md#reading-rows).
    package static func emptyFields(room count: Int) -> [String: Value] {
        guard count > 0 else { return [:] }
        for kept in roomyFields where kept.capacity >= count { return kept }
        return Dictionary(minimumCapacity: count)
    }

    /// A record from a dictionary and its keys in order, each once and none `objectId` (what a
    /// reader that builds both as it goes has already made sure of).
    public init(objectId: String, fields: [String: Value], fieldOrder: [String]) {
        self.objectId = objectId
        self.fields = fields
        self.fieldOrder = fieldOrder
    }

    /// The field's value; `objectId` is a field too. Nil when the object has no such field.
    @inlinable public subscript(field: String) -> Value? {
        field == "objectId" ? .string(objectId) : fields[field]
    }

    /// This object as a pointer.
    public func pointer(in className: String) -> Pointer { Pointer(className: className, objectId: objectId) }
}

/// Empty dictionaries of each size up to 128 buckets (`Record.emptyFields`).
private let roomyFields: [[String: Value]] = [1, 3, 6, 12, 24, 48, 96].map { Dictionary(minimumCapacity: $0) }

/// The objects of one class, in insertion order, with an objectId lookup and inferred field types.
public struct ClassData: Sendable {
    public let name: String
    public private(set) var records: [Record]
    public private(set) var positionById: [String: Int]
    public private(set) var fieldTypes: [String: FieldType]
    /// Field names in first-seen order.
    public private(set) var fieldNames: [String]

    public init(name: String, records: [Record] = []) {
        self.name = name
        self.records = []
        self.positionById = [:]
        self.fieldTypes = [:]
        self.fieldNames = []
        for r in records { insert(r) }
    }

    /// Adds an object, or replaces the one with the same objectId.
    public mutating func insert(_ record: Record) {
        if let at = positionById[record.objectId] {
            records[at] = record
        } else {
            positionById[record.objectId] = records.count
            records.append(record)
        }
        FieldType.note(record, types: &fieldTypes, names: &fieldNames)
    }

    public func record(_ objectId: String) -> Record? {
        positionById[objectId].map { records[$0] }
    }

    /// Removes the object with this objectId; the objects after it move up one position, so
    /// insertion order is kept. Returns the position it had, nil if there was no such object.
    /// Field types seen stay recorded (they describe the class, not one object).
    @discardableResult
    public mutating func remove(_ objectId: String) -> Int? {
        guard let at = positionById.removeValue(forKey: objectId) else { return nil }
        records.remove(at: at)
        for i in at..<records.count { positionById[records[i].objectId] = i }
        return at
    }
}

/// A database of classes: what the CLI's `--data` file holds (docs/SEMANTICS.md#data-files).
public struct Database: Sendable {
    public private(set) var classes: [String: ClassData]
    /// Class names in the order they were first seen.
    public private(set) var classNames: [String]

    public init() {
        classes = [:]
        classNames = []
    }

    public init(_ classes: [ClassData]) {
        self.init()
        for c in classes { add(c) }
    }

    public mutating func add(_ data: ClassData) {
        if classes[data.name] == nil { classNames.append(data.name) }
        classes[data.name] = data
    }

    public mutating func insert(_ record: Record, into className: String) {
        if classes[className] == nil {
            classNames.append(className)
            classes[className] = ClassData(name: className)
        }
        classes[className]!.insert(record)
    }

    /// Removes an object; returns the position it had in its class, nil if it was not there.
    @discardableResult
    public mutating func remove(_ objectId: String, from className: String) -> Int? {
        classes[className]?.remove(objectId)
    }

    public subscript(className: String) -> ClassData? { classes[className] }

    /// The object a pointer leads to; nil for a dangling pointer (which behaves as null).
    public func resolve(_ p: Pointer) -> Record? { classes[p.className]?.record(p.objectId) }
}

extension Database: Schema {
    public func hasClass(_ className: String) -> Bool { classes[className] != nil }

    public func resolveField(_ name: String, in className: String) -> String? {
        if Self.systemFields.contains(name) { return name }
        guard let c = classes[className] else { return nil }
        if c.fieldTypes[name] != nil || c.fieldNames.contains(name) { return name }
        let lowered = name.lowercased()
        let matches = c.fieldNames.filter { $0.lowercased() == lowered }
        return matches.count == 1 ? matches[0] : nil
    }

    /// A stored field's name and type from one lookup of its class; other names (system
    /// fields, other cases) as `resolveField` and `fieldType` answer them.
    public func field(_ name: String, in className: String) -> (stored: String, type: FieldType?)? {
        if name != "objectId", let type = classes[className]?.fieldTypes[name] { return (name, type) }
        return resolveField(name, in: className).map { ($0, fieldType($0, in: className)) }
    }

    public func fieldType(_ field: String, in className: String) -> FieldType? {
        switch field {
        case "objectId": return .string
        case "createdAt", "updatedAt": return classes[className]?.fieldTypes[field] ?? .date
        default: return classes[className]?.fieldTypes[field]
        }
    }

    public func fieldNames(in className: String) -> [String] {
        guard let c = classes[className] else { return [] }
        return ["objectId"] + c.fieldNames.filter { $0 != "objectId" }
    }

    /// Fields every object has, whatever its class.
    public static let systemFields: Set<String> = ["objectId", "createdAt", "updatedAt"]
}

extension FieldType {
    /// The type of one stored value; nil for null (which says nothing about the type).
    public static func of(_ v: Value) -> FieldType? {
        switch v {
        case .null: return nil
        case .bool: return .bool
        case .int, .double: return .number
        case .string: return .string
        case .date: return .date
        case .bytes: return .bytes
        case .geoPoint: return .geoPoint
        case .polygon: return .polygon
        case .file: return .file
        case .object: return .object
        case .pointer(let p): return .pointer(to: p.className)
        case .relation(let c, _): return .relation(to: c)
        case .array(let items):
            var element: FieldType? = nil
            for item in items {
                guard let t = of(item) else { continue }
                element = element.map { $0 == t ? t : $0.merged(with: t) } ?? t
            }
            if case .pointer(let c)? = element { return .relation(to: c) }
            return .array(of: element)
        }
    }

    public func merged(with other: FieldType) -> FieldType {
        if self == other { return self }
        switch (self, other) {
        case (.array(nil), .array), (.array(nil), .relation): return other
        case (.array, .array(nil)), (.relation, .array(nil)): return self
        default: return .mixed
        }
    }
}
