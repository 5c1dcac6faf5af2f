import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// Statistics a loading column notes after the load (`noteDeferredValues`,
/// docs/STORAGE.md#direct-loading) equal those of noting every value as it comes: bounds,
/// distinct sketch, types and counts, for each kind whose rows are read back without a `Value`
/// each, with ties, negative zero, ints stored as doubles, NaN, nulls, misfits and missing rows,
/// pointers resolved, dangling and into another class, and arrays of strings (ties, prefixes,
/// null and misfit elements, empty arrays), their elements plain or dictionary-coded.
@Suite struct DeferredStatisticsTests {
    static func values(_ kind: ColumnKind, _ rng: inout SplitMix64) -> [Value?] {
        (0..<Int(rng.next() % 200)).map { _ -> Value? in
            switch rng.next() % 10 {
            case 0: return nil
            case 1: return .null
            case 2: return .string("misfit\(rng.next() % 3)")
            default: break
            }
            let small = Int64(rng.next() % 21) - 10
            switch kind {
            case .int: return .int(rng.next() % 4 == 0 ? small : Int64(bitPattern: rng.next()))
            case .date: return .date(small * 86_400_000)
            case .array:
                // Few strings, so that arrays tie and share prefixes; nulls and misfit elements.
                return .array(
                    (0..<Int(rng.next() % 4)).map { _ -> Value in
                        switch rng.next() % 12 {
                        case 0: return .null
                        case 1: return .int(7)
                        default: return .string(["", "a", "ab", "b", "é"][Int(rng.next() % 5)])
                        }
                    })
            case .pointer:
                // Into T (objects a0…a4 exist; others dangle), or into another class (a misfit).
                let id = "a\(rng.next() % 9)"
                return .pointer(Pointer(className: rng.next() % 8 == 0 ? "U" : "T", objectId: id))
            case .double:
                // Few values, so that the bounds tie across ints, doubles and signed zeros.
                switch rng.next() % 6 {
                case 0: return .int(small % 2)
                case 1: return .double(-0.0)
                case 2: return .double(rng.next() % 8 == 0 ? .nan : 0.0)
                default: return .double(Double(small % 2))
                }
            default:
                return .geoPoint(GeoPoint(latitude: Double(small), longitude: Double(rng.next() % 5) - 2))
            }
        }
    }

    @Test(arguments: 0..<40 as Range<UInt64>)
    func deferredNotingIsNotingEveryValue(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let store = ColumnStore(database: Database())
        let target = store.table(creating: "T")
        for i in 0..<5 { _ = target.appendRow("a\(i)") }
        let kinds = [
            ColumnKind.int, .date, .double, .geoPoint, .pointer(to: "T"), .array(of: .string), .array(of: .string),
        ]
        for (k, kind) in kinds.enumerated() {
            let values = Self.values(kind, &rng)
            let deferred = store.makeColumn(kind), noted = store.makeColumn(kind)
            deferred.deferStatisticsWhileLoading()
            // Array elements both plain and dictionary-coded as they load.
            if k == kinds.count - 1 { deferred.codeStringsWhileLoading() }
            for v in values {
                deferred.append(v)
                noted.append(v)
            }
            deferred.noteDeferredValues()
            let a = deferred.statistics, b = noted.statistics
            let context = "seed \(seed), \(kind): \(values)"
            #expect(
                (a.missing, a.nulls, a.typed, a.others, a.multiValued, a.typeBits)
                    == (b.missing, b.nulls, b.typed, b.others, b.multiValued, b.typeBits), "\(context)")
            #expect(a.distinct == b.distinct, "\(context)")
            #expect(Self.same(a.min, b.min) && Self.same(a.max, b.max), "\(context): \(a) against \(b)")
        }
    }

    /// The same value, by kind and bits (`==` holds 0.0 and -0.0, 1 and 1.0 equal).
    static func same(_ a: Value?, _ b: Value?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (.double(let x)?, .double(let y)?): return x.bitPattern == y.bitPattern
        case (.int(let x)?, .int(let y)?): return x == y
        case (let x?, let y?): return x == y && x.typeRank == y.typeRank && "\(x)" == "\(y)"
        default: return false
        }
    }
}
