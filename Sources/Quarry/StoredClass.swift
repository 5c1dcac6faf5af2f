/// A Swift type whose values are the objects of one class, for `engine.find(Contact.self, …)`
/// and `engine.insert(contact)` without naming the class (docs/API.md#codable).
///
/// A `Decodable` type that does not adopt it is read from the class named like the type
/// (`Contact` for `Contact`); adopt it when the names differ.
public protocol StoredClass {
    /// The class the type's values are stored in.
    static var className: String { get }
}

/// The class a type is stored in: its `StoredClass` name, else the type's own name.
func storedClassName(of type: Any.Type) -> String {
    (type as? any StoredClass.Type)?.className ?? String(describing: type)
}
