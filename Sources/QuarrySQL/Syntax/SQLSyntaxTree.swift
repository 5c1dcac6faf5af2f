import QuarryCore

// The where clause as written: every node keeps the bytes it spans, so that lowering and
// tools (highlighting, linting) can point at the exact text.

/// A parsed where clause and the tokens it was read from.
public struct SQLSyntaxTree: Hashable, Sendable {
    public var root: SQLCondition
    public var tokens: [SQLToken]
}

/// A boolean expression.
public struct SQLCondition: Hashable, Sendable {
    public indirect enum Kind: Hashable, Sendable {
        case or([SQLCondition])
        case and([SQLCondition])
        case not(SQLCondition)
        /// `( … )`
        case group(SQLCondition)
        /// `TRUE` / `FALSE` standing alone.
        case constant(Bool)
        case predicate(SQLPredicate)
    }

    public var kind: Kind
    public var range: SourceRange
}

/// One test.
public struct SQLPredicate: Hashable, Sendable {
    public indirect enum Kind: Hashable, Sendable {
        /// `a = b`, `a != b`, `a < b` … (operands are paths or literals).
        case compare(SQLScalar, SQLOperator, SQLScalar)
        /// `a IS [NOT] NULL`
        case isNull(SQLScalar, negated: Bool)
        /// `a [NOT] LIKE 'pattern' [ESCAPE 'c']`
        case like(SQLScalar, pattern: SQLLiteral, escape: SQLLiteral?, negated: Bool)
        /// `a [NOT] IN (v, …)`
        case inList(SQLScalar, [SQLScalar], negated: Bool)
        /// `a [NOT] IN (Table[where].path)` / `a [NOT] IN (Table.path)`
        case inSubquery(SQLScalar, SQLSubquery, negated: Bool)
        /// `a [NOT] BETWEEN lower AND upper`
        case between(SQLScalar, lower: SQLScalar, upper: SQLScalar, negated: Bool)
        /// `distance(lat, lon, key.latitude, key.longitude) op unit(x)`
        case distance(SQLDistance)
        /// `Within(key, 'POLYGON((…))') = TRUE|FALSE`
        case within(SQLWithin)
        /// `Parent[relation].column <test>`: `test` is a predicate on the parent's column.
        case inverted(parent: SQLName, relation: SQLName, SQLPredicate)
    }

    public var kind: Kind
    public var range: SourceRange
}

/// An operand of a test.
public enum SQLScalar: Hashable, Sendable {
    case path(SQLPath)
    case literal(SQLLiteral)

    public var range: SourceRange {
        switch self {
        case .path(let p): return p.range
        case .literal(let l): return l.range
        }
    }
}

/// A name as written (`name`, `` `weird name` ``).
public struct SQLName: Hashable, Sendable {
    public var text: String
    public var quoted: Bool
    public var range: SourceRange
}

/// A dotted path of names, `a.b.c`.
public struct SQLPath: Hashable, Sendable {
    public var components: [SQLName]
    public var range: SourceRange
}

/// A literal as written; a leading `-` is part of a number's range.
public struct SQLLiteral: Hashable, Sendable {
    public enum Value: Hashable, Sendable {
        case null
        case bool(Bool)
        case int(Int64)
        case double(Double)
        case string(String)
    }

    public var value: Value
    public var range: SourceRange
}

/// A comparison operator as written, including the date keywords.
public struct SQLOperator: Hashable, Sendable {
    public enum Spelling: String, Hashable, Sendable, CaseIterable {
        case equal = "="
        case notEqual = "!="
        case notEqualSQL = "<>"
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case greaterOrEqualAlias = "=>"
        case after = "after"
        case before = "before"
        case atOrAfter = "at or after"
        case atOrBefore = "at or before"

        public var comparison: ComparisonOperator {
            switch self {
            case .equal: return .eq
            case .notEqual, .notEqualSQL: return .ne
            case .less, .before: return .lt
            case .lessOrEqual, .atOrBefore: return .le
            case .greater, .after: return .gt
            case .greaterOrEqual, .greaterOrEqualAlias, .atOrAfter: return .ge
            }
        }

        /// The date keywords require date operands.
        public var isDateKeyword: Bool {
            switch self {
            case .after, .before, .atOrAfter, .atOrBefore: return true
            default: return false
            }
        }
    }

    public var spelling: Spelling
    public var range: SourceRange
}

/// `Table[where].path` or `Table.path` inside `IN ( … )`.
public struct SQLSubquery: Hashable, Sendable {
    public var table: SQLName
    /// The bracketed where clause; nil when absent (all rows).
    public var condition: SQLCondition?
    public var selected: SQLPath
    public var range: SourceRange
}

/// `distance(latitude, longitude, latitudeColumn, longitudeColumn) op unit(amount)`
public struct SQLDistance: Hashable, Sendable {
    public var latitude: SQLLiteral
    public var longitude: SQLLiteral
    public var latitudeColumn: SQLPath
    public var longitudeColumn: SQLPath
    public var op: SQLOperator
    public var unit: SQLName
    public var amount: SQLLiteral
}

/// `Within(column, 'POLYGON((…))') op expected`
public struct SQLWithin: Hashable, Sendable {
    public var column: SQLPath
    /// The WKT text as a string literal (its range includes the quotes).
    public var geometry: SQLLiteral
    public var op: SQLOperator
    public var expected: SQLLiteral
}
