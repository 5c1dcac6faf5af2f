// Storing what a client sent in one call (docs/API.md#inserting): Parse REST JSON text or any
// `Encodable` value.

extension Engine {
    /// Stores one Parse REST JSON object (as a client's create or save request carries it) in
    /// `className` and returns the record stored. An object without an `objectId` gets a new
    /// one (ten letters and digits, as Parse makes them); one with the objectId of a stored
    /// object replaces it. Errors are located in `text`.
    @discardableResult
    public func insert(json text: String, into className: String) throws(Diagnostic) -> Record {
        let record = try Record(json: text, defaultObjectId: newObjectId(in: className))
        insert(record, into: className)
        return record
    }

    /// Stores an `Encodable` value (`ValueEncoder`) in `className`, by default `T.className`
    /// for a `StoredClass`, else the type's name, and returns the record stored. A value
    /// without an `objectId` gets a new one.
    @discardableResult
    public func insert<T: Encodable>(_ object: T, into className: String? = nil) throws(Diagnostic) -> Record {
        let name = className ?? storedClassName(of: T.self)
        let record = try ValueEncoder().encodeRecord(object, defaultObjectId: newObjectId(in: name))
        insert(record, into: name)
        return record
    }

    /// A random objectId no object of the class has.
    func newObjectId(in className: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        while true {
            let id = String((0..<10).map { _ in alphabet.randomElement()! })
            if object(id, in: className) == nil { return id }
        }
    }
}
