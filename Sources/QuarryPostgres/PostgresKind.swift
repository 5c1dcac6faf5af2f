import Quarry
import QuarryStoreSupport

/// What one field of a class holds, merged over every value ever saved there (nulls and
/// missing values say nothing; `StoreFieldKind` merges them), as the PostgreSQL catalog records
/// it (docs/STORAGE.md#postgresql-schema).
/// The translator reads the field from the `jsonb` document with the kind's cast; a field whose
/// values PostgreSQL cannot compare as Quarry does is `unsupported`, and every conjunct that
/// tests it stays residual.
indirect enum PostgresKind: StoreFieldKind {
    /// Int64 and finite doubles, read as `numeric` (exact for both).
    case number
    case text
    /// Epoch milliseconds, read as `bigint`.
    case date
    case bool
    /// A `[lat, lon]` pair.
    case geoPoint
    /// The objectId of an object of the class.
    case pointer(to: String)
    /// A `jsonb` array of scalar elements of one kind (nil: no non-null element anywhere).
    case array(of: PostgresKind?)
    case unsupported(reason: String)

    static func of(scalar v: Value) -> PostgresKind? {
        switch v {
        case .int: return .number
        case .double(let d):
            return d.isFinite ? .number : .unsupported(reason: "it holds \(d), which jsonb cannot hold")
        case .string(let s):
            return s.utf8.contains(0)
                ? .unsupported(reason: "it holds a string with a NUL, which PostgreSQL text cannot hold") : .text
        case .date: return .date
        case .bool: return .bool
        case .pointer(let p): return .pointer(to: p.className)
        default: return nil
        }
    }

    static func of(geoPoint g: GeoPoint) -> PostgresKind {
        g.latitude.isFinite && g.longitude.isFinite
            ? .geoPoint : .unsupported(reason: "it holds a geo point that jsonb cannot hold")
    }

    /// Numbers are one kind already: two different kinds are never held together.
    func widened(with other: PostgresKind) -> PostgresKind? { nil }

    var unsupportedReason: String? { if case .unsupported(let reason) = self { reason } else { nil } }
    var arrayElement: PostgresKind?? { if case .array(let element) = self { .some(element) } else { nil } }

    var name: String {
        switch self {
        case .number: return "number"
        case .text: return "string"
        case .date: return "date"
        case .bool: return "bool"
        case .geoPoint: return "geo point"
        case .pointer(let c): return "pointer to \(c)"
        case .array: return "array"
        case .unsupported: return "unsupported"
        }
    }

    var isPointer: Bool {
        if case .pointer = self { return true }
        return false
    }

    /// Kinds whose PostgreSQL order (with `COLLATE "C"` for text) is Quarry's.
    var sortsAsQuarry: Bool {
        switch self {
        case .number, .text, .date, .bool, .pointer: return true
        default: return false
        }
    }

    /// The catalog's text for the kind.
    var storedText: String {
        switch self {
        case .number: return "number"
        case .text: return "text"
        case .date: return "date"
        case .bool: return "bool"
        case .geoPoint: return "geo"
        case .pointer(let c): return "pointer:" + c
        case .array(let e): return "array:" + (e?.storedText ?? "")
        case .unsupported(let reason): return "unsupported:" + reason
        }
    }

    init?(storedText s: String) {
        switch s {
        case "number": self = .number
        case "text": self = .text
        case "date": self = .date
        case "bool": self = .bool
        case "geo": self = .geoPoint
        default:
            if s.hasPrefix("pointer:") {
                self = .pointer(to: String(s.dropFirst(8)))
            } else if s.hasPrefix("array:") {
                let rest = String(s.dropFirst(6))
                if rest.isEmpty {
                    self = .array(of: nil)
                } else {
                    guard let e = PostgresKind(storedText: rest) else { return nil }
                    self = .array(of: e)
                }
            } else if s.hasPrefix("unsupported:") {
                self = .unsupported(reason: String(s.dropFirst(12)))
            } else {
                return nil
            }
        }
    }
}
