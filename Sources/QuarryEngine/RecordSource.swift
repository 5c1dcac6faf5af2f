import QuarryCore

/// Where the reference machinery (key paths, fallbacks, projection, inner queries) reads
/// stored objects: a `Database` of records for `ReferenceEvaluator`, the engine's column store
/// (records built from the columns on demand) for `Engine`.
protocol RecordSource {
    func hasClass(_ className: String) -> Bool
    /// The object a pointer leads to; nil for a dangling pointer.
    func resolve(_ p: Pointer) -> Record?
    /// One field of the object a pointer leads to (`objectId` too); nil when the pointer
    /// dangles or the object has no such field.
    func field(_ name: String, of p: Pointer) -> Value?
    /// Whether the object a pointer leads to exists.
    func contains(_ p: Pointer) -> Bool
    /// Positions in a class (0 when there is no such class).
    func objectCount(in className: String) -> Int
    /// The object at a position of a class, in insertion order; nil for a position whose object
    /// was deleted (the engine keeps deleted rows until it compacts: docs/STORAGE.md#deletes).
    func record(at position: Int, in className: String) -> Record?
}

extension Database: RecordSource {
    func field(_ name: String, of p: Pointer) -> Value? { resolve(p)?[name] }
    func contains(_ p: Pointer) -> Bool { resolve(p) != nil }
    func objectCount(in className: String) -> Int { self[className]?.records.count ?? 0 }
    func record(at position: Int, in className: String) -> Record? { self[className]!.records[position] }
}
