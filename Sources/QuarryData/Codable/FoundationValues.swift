import Foundation
import QuarryCore

// Quarry's values and Foundation's: a date is milliseconds since 1970 (Parse's precision), bytes
// are `Data` (docs/API.md#codable).

extension Value {
    /// A date value: `date` to the nearest millisecond. Nil when the instant is not finite
    /// or lies beyond ±292 million years, which no `Int64` count of milliseconds reaches.
    public init?(_ date: Date) {
        guard let ms = Self.millis(date) else { return nil }
        self = .date(ms)
    }

    /// The date of a `date` value; nil for any other value.
    public var dateValue: Date? {
        guard case .date(let ms) = self else { return nil }
        return Date(millisecondsSince1970: ms)
    }

    /// A bytes value.
    public init(_ data: Data) { self = .bytes([UInt8](data)) }

    /// The bytes of a `bytes` value as `Data`; nil for any other value.
    public var dataValue: Data? {
        guard case .bytes(let b) = self else { return nil }
        return Data(b)
    }

    static func millis(_ date: Date) -> Int64? {
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        guard ms.isFinite, ms >= -9.2e18, ms <= 9.2e18 else { return nil }
        return Int64(ms)
    }
}

extension Date {
    /// The instant `ms` milliseconds after 1970-01-01T00:00:00Z, as Quarry's `date` values count.
    public init(millisecondsSince1970 ms: Int64) {
        self.init(timeIntervalSince1970: Double(ms) / 1000)
    }
}
