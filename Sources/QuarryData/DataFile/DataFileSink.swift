import QuarryCore

/// Receives a data file's objects field by field as `DataFile.read(path:into:)` reads them, so
/// that a store builds its columns straight from the bytes, with no `Record` in between
/// (docs/STORAGE.md#direct-loading). Calls come in this order: `beginClass`, then per object
/// `field` and `value` for each member (a repeated key comes again: its last value wins, its
/// first position stays) and `endObject`; when reading is over, whether or not it finished,
/// `drain`.
public protocol DataFileSink {
    /// A class starts; each class comes once.
    mutating func beginClass(_ name: String)
    /// About this many objects of the current class are coming (an estimate, for reserving).
    mutating func expect(_ objects: Int)
    /// A number for a field of the current class, the same for the same name.
    mutating func field(named name: String) -> Int
    /// A field's value of the object being read.
    mutating func value(_ value: Value, field: Int)
    /// The object is complete; false when the class already has an object with this objectId.
    mutating func endObject(objectId: String) -> Bool
    /// Reading is over (also when the file could not be opened): a sink that works behind the
    /// reader finishes its work. False when it refused an object that `endObject` could not
    /// report yet.
    mutating func drain() -> Bool
}

extension DataFileSink {
    public mutating func drain() -> Bool { true }
}
