/// A field as a store's catalog records it: its name and the number that names its place in
/// SQL (docs/STORAGE.md).
package protocol CatalogField {
    var name: String { get }
    var number: Int { get }
}

/// A class's fields in catalog order, found by name through a dictionary and added or updated
/// in place: a class may have thousands, and a linear search or a copy of them all for every
/// value saved made an import of such a class quadratic.
package struct CatalogFields<Field: CatalogField> {
    package private(set) var all: [Field] = []
    private var positions: [String: Int] = [:]
    /// The highest field number.
    package private(set) var lastNumber = 0

    package init() {}

    package func position(_ name: String) -> Int? { positions[name] }
    package func field(_ name: String) -> Field? { positions[name].map { all[$0] } }

    package mutating func append(_ field: Field) {
        positions[field.name] = all.count
        all.append(field)
        lastNumber = max(lastNumber, field.number)
    }

    /// Puts `field` in place of the field of its name.
    package mutating func replace(_ field: Field) {
        if let at = positions[field.name] { all[at] = field }
    }
}
