import Foundation
import QuarryCore

extension Evaluation {
    /// A built-in function on evaluated arguments. Nil arguments, and arguments of a type the
    /// function does not take, give null (so the comparison using the result is false).
    func call(_ f: Function, _ args: [Operand]) throws(Diagnostic) -> Value {
        guard args.count == f.arity else {
            throw Diagnostic(
                .query.functionArity,
                "\(f.callName)() takes \(f.arity) argument(s) but was given \(args.count)")
        }
        let values = args.map { $0.value ?? .null }
        func collection() -> [Value] { resolver.collection(args[0]) }
        switch f {
        case .sum: return Statistics.sum(collection())
        case .count: return Statistics.count(collection())
        case .min: return Statistics.extreme(collection(), largest: false)
        case .max: return Statistics.extreme(collection(), largest: true)
        case .average: return Statistics.average(collection())
        case .median: return Statistics.median(collection())
        case .mode: return Statistics.mode(collection())
        case .stddev: return Statistics.standardDeviation(collection())
        case .add: return Arithmetic.apply(.add, values[0], values[1])
        case .subtract: return Arithmetic.apply(.subtract, values[0], values[1])
        case .multiply: return Arithmetic.apply(.multiply, values[0], values[1])
        case .divide: return Arithmetic.apply(.divide, values[0], values[1])
        case .modulus: return Arithmetic.apply(.modulus, values[0], values[1])
        case .raise: return Arithmetic.apply(.power, values[0], values[1])
        case .sqrt: return real(values[0]) { $0.squareRoot() }
        case .log: return real(values[0], log10)
        case .ln: return real(values[0], log)
        case .exp: return real(values[0], exp)
        case .floor: return rounded(values[0], .down)
        case .ceiling: return rounded(values[0], .up)
        case .trunc: return rounded(values[0], .towardZero)
        case .abs:
            switch values[0] {
            case .int(let i): return i == .min ? .double(-Double(i)) : .int(Swift.abs(i))
            case .double(let d): return .double(Swift.abs(d))
            default: return .null
            }
        case .random: return .double(random())
        case .randomn:
            guard let n = integer(values[0]), n > 0 else { return .null }
            return .int(Swift.min(Int64((random() * Double(n)).rounded(.down)), n - 1))
        case .now: return .date(nowMillis)
        case .uppercase: return text(values[0]) { $0.uppercased() }
        case .lowercase: return text(values[0]) { $0.lowercased() }
        case .length:
            // Unicode scalars, the unit every string operator here works in.
            guard case .string(let s) = values[0] else { return .null }
            return .int(Int64(s.unicodeScalars.count))
        case .bitwiseAnd: return bits(values[0], values[1]) { $0 & $1 }
        case .bitwiseOr: return bits(values[0], values[1]) { $0 | $1 }
        case .bitwiseXor: return bits(values[0], values[1]) { $0 ^ $1 }
        case .leftshift: return shift(values[0], values[1]) { $0 << $1 }
        case .rightshift: return shift(values[0], values[1]) { $0 >> $1 }
        case .onesComplement: return integer(values[0]).map { .int(~$0) } ?? .null
        case .noindex: return values[0]
        case .distanceToLocation:
            guard case .geoPoint(let a) = values[0], case .geoPoint(let b) = values[1] else { return .null }
            return .double(Geo.meters(a, b))
        case .relativeTime:
            guard case .string(let phrase) = values[0] else { return .null }
            switch RelativeTime.parse(phrase) {
            case .success(let offset):
                let (ms, overflow) = nowMillis.addingReportingOverflow(offset)
                return overflow ? .null : .date(ms)
            case .failure(let error):
                throw Diagnostic(.date.relativeTime, "'\(phrase)' is not a relative time: \(error.message)")
            }
        }
    }

    private func real(_ v: Value, _ f: (Double) -> Double) -> Value {
        v.numericValue.map { .double(f($0)) } ?? .null
    }

    private func rounded(_ v: Value, _ rule: FloatingPointRoundingRule) -> Value {
        switch v {
        case .int: return v
        case .double(let d): return .double(d.rounded(rule))
        default: return .null
        }
    }

    private func text(_ v: Value, _ f: (String) -> String) -> Value {
        guard case .string(let s) = v else { return .null }
        return .string(f(s))
    }

    /// An int, or a double with an integral value that fits one.
    private func integer(_ v: Value) -> Int64? {
        switch v {
        case .int(let i): return i
        case .double(let d): return Int64(exactly: d)
        default: return nil
        }
    }

    private func bits(_ a: Value, _ b: Value, _ f: (Int64, Int64) -> Int64) -> Value {
        guard let x = integer(a), let y = integer(b) else { return .null }
        return .int(f(x, y))
    }

    /// Shifts by 0 or more places (Swift's shifts: bits shifted past the end are gone).
    private func shift(_ a: Value, _ b: Value, _ f: (Int64, Int64) -> Int64) -> Value {
        guard let x = integer(a), let n = integer(b), n >= 0 else { return .null }
        return .int(f(x, n))
    }
}

/// `CAST(value, 'NSDate' | 'NSNumber' | 'NSString')`.
enum Cast {
    /// 2001-01-01T00:00:00Z, NSDate's reference date, in epoch milliseconds.
    static let referenceDateMillis: Int64 = 978_307_200_000

    static func apply(_ v: Value, to type: CastType) -> Value {
        switch (type, v) {
        case (_, .null): return .null
        case (.date, .date): return v
        case (.date, .int), (.date, .double):
            // Numbers are seconds since the reference date, as NSDate reads them.
            guard let seconds = v.numericValue,
                let ms = Int64(exactly: (Double(referenceDateMillis) + seconds * 1000).rounded())
            else { return .null }
            return .date(ms)
        case (.date, .string(let s)):
            return (ISODate.parse(s) ?? BackendlessDate.parse(s)).map(Value.date) ?? .null
        case (.number, .int), (.number, .double): return v
        case (.number, .bool(let b)): return .int(b ? 1 : 0)
        case (.number, .date(let ms)): return .double((Double(ms) - Double(referenceDateMillis)) / 1000)
        case (.number, .string(let s)):
            if let i = Int64(s) { return .int(i) }
            return Double(s).map(Value.double) ?? .null
        case (.string, .string): return v
        case (.string, .int(let i)): return .string(String(i))
        case (.string, .double(let d)):
            return .string(d == d.rounded() && Swift.abs(d) < 1e15 ? String(Int64(d)) : String(d))
        case (.string, .bool(let b)): return .string(b ? "1" : "0")
        case (.string, .date(let ms)): return .string(ISODate.format(ms))
        default: return .null
        }
    }
}
