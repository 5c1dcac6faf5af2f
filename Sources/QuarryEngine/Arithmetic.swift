import Foundation
import QuarryCore

/// Arithmetic on values, as NSExpression does it: int op int stays an int (division truncates,
/// as `5 / 2` is 2 in NSExpression) unless it overflows, then the result is a double; a double
/// operand makes a double. Dates move by seconds (`date + 60` is a minute later; date − date is
/// seconds). Anything else, or a nil operand, gives null.
enum Arithmetic {
    static func apply(_ op: ArithmeticOperator, _ a: Value, _ b: Value) -> Value {
        switch (a, b) {
        case (.int(let x), .int(let y)): return integer(op, x, y)
        case (.date(let ms), _):
            guard let seconds = b.numericValue else {
                if op == .subtract, case .date(let other) = b {
                    return .double(Double(ms) / 1000 - Double(other) / 1000)
                }
                return .null
            }
            switch op {
            case .add: return shift(ms, by: seconds)
            case .subtract: return shift(ms, by: -seconds)
            default: return .null
            }
        case (_, .date(let ms)):
            guard op == .add, let seconds = a.numericValue else { return .null }
            return shift(ms, by: seconds)
        default:
            guard let x = a.numericValue, let y = b.numericValue else { return .null }
            return .double(floating(op, x, y))
        }
    }

    static func negate(_ v: Value) -> Value {
        switch v {
        case .int(let i): return i == .min ? .double(-Double(i)) : .int(-i)
        case .double(let d): return .double(-d)
        default: return .null
        }
    }

    private static func integer(_ op: ArithmeticOperator, _ x: Int64, _ y: Int64) -> Value {
        let r: (partialValue: Int64, overflow: Bool)
        switch op {
        case .add: r = x.addingReportingOverflow(y)
        case .subtract: r = x.subtractingReportingOverflow(y)
        case .multiply: r = x.multipliedReportingOverflow(by: y)
        case .divide:
            if y == 0 { return .null }
            r = x.dividedReportingOverflow(by: y)
        case .modulus:
            if y == 0 { return .null }
            r = x.remainderReportingOverflow(dividingBy: y)
        case .power: return .double(pow(Double(x), Double(y)))
        }
        return r.overflow ? .double(floating(op, Double(x), Double(y))) : .int(r.partialValue)
    }

    static func floating(_ op: ArithmeticOperator, _ x: Double, _ y: Double) -> Double {
        switch op {
        case .add: return x + y
        case .subtract: return x - y
        case .multiply: return x * y
        case .divide: return x / y
        case .modulus: return x.truncatingRemainder(dividingBy: y)
        case .power: return pow(x, y)
        }
    }

    /// A date moved by a number of seconds; null when the result is not a representable date.
    private static func shift(_ ms: Int64, by seconds: Double) -> Value {
        let moved = (Double(ms) + seconds * 1000).rounded()
        guard let result = Int64(exactly: moved) else { return .null }
        return .date(result)
    }
}
