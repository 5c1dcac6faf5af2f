/// The three query languages Quarry reads and writes.
public enum Dialect: String, CaseIterable, Hashable, Codable, Sendable, CustomStringConvertible {
    /// SQL-92 where-clauses of the Backendless dialect: `age > 20 AND name LIKE 'J%'`.
    case sql
    /// NSPredicate format strings: `age > 20 AND name BEGINSWITH[c] 'j'`.
    case predicate
    /// Parse REST `where` JSON (or a whole request body): `{"age":{"$gt":20}}`.
    case json

    public var description: String { rawValue }
}

extension Dialect {
    /// The leaf semantics the dialect's front-end lowers into and its printer writes.
    public var semantics: LeafSemantics {
        switch self {
        case .sql: return .sql
        case .predicate: return .predicate
        case .json: return .document
        }
    }
}
