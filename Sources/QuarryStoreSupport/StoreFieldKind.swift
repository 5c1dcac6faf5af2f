import QuarryCore

/// What one field of a class holds in a store, merged over every value ever saved there (nulls
/// and missing values say nothing; deletes never narrow it), as the store's catalog records it
/// (docs/STORAGE.md#tables, docs/STORAGE.md#postgresql-schema). Each store has its own kinds —
/// the scalars its SQL can compare as Quarry does — but arrays, pointers, `unsupported` and the
/// way values merge into a kind are the same for both, and live here.
///
/// An enum's cases witness the three constructors (`case array(of: Self?)`…).
@usableFromInline package protocol StoreFieldKind: Equatable {
    /// Values the store cannot compare as Quarry does: every test on the field stays residual.
    static func unsupported(reason: String) -> Self
    /// An array whose non-null elements are all of one kind (nil: no non-null element yet).
    static func array(of element: Self?) -> Self
    /// The objectId of an object of the class.
    static func pointer(to className: String) -> Self

    /// The kind of one non-null scalar value (int, double, string, date, bool, pointer); nil
    /// for values that are not scalars.
    static func of(scalar v: Value) -> Self?
    /// The kind of a geo point field.
    static func of(geoPoint g: GeoPoint) -> Self

    /// The store's own kind for two different scalar kinds it holds together (SQLite: integers
    /// with doubles are doubles); nil when only `unsupported` holds both.
    func widened(with other: Self) -> Self?

    /// The reason when the kind is `unsupported`.
    var unsupportedReason: String? { get }
    /// When the kind is an array, its element kind (`.some(nil)`: no non-null element yet).
    var arrayElement: Self?? { get }
    /// The kind's name in a reason (`it holds values of several types (… and …)`).
    var name: String { get }
}

extension StoreFieldKind {
    /// The kind of one stored value; nil for null.
    @inlinable
    package static func of(_ v: Value) -> Self? {
        switch v {
        case .null: return nil
        case .geoPoint(let g): return of(geoPoint: g)
        case .relation(let className, _): return .array(of: .pointer(to: className))
        case .array(let items):
            var element: Self? = nil
            for item in items where !item.isNull {
                guard let k = of(scalar: item) else {
                    return .unsupported(reason: "its arrays hold \(item.typeName) values")
                }
                element = element.map { $0 == k ? $0 : $0.merged(with: k) } ?? k
            }
            if let reason = element?.unsupportedReason { return .unsupported(reason: reason) }
            return .array(of: element)
        case .int, .double, .string, .date, .bool, .pointer: return of(scalar: v)
        case .bytes, .polygon, .file, .object: return .unsupported(reason: "it holds \(v.typeName) values")
        }
    }

    /// The kind that holds values of both kinds, or `unsupported`.
    @inlinable
    package func merged(with other: Self) -> Self {
        if unsupportedReason != nil { return self }
        if other.unsupportedReason != nil { return other }
        if let a = arrayElement, let b = other.arrayElement {
            guard let x = a else { return other }
            guard let y = b else { return self }
            let element = x.merged(with: y)
            if let reason = element.unsupportedReason {
                return .unsupported(reason: "its arrays mix element types (\(reason))")
            }
            return .array(of: element)
        }
        if self == other { return self }
        if let kind = widened(with: other) { return kind }
        return .unsupported(reason: "it holds values of several types (\(name) and \(other.name))")
    }
}
