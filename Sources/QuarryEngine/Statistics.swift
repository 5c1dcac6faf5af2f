import Foundation
import QuarryCore

/// Statistics over a collection's elements, shared by the collection operators (`@sum`, …)
/// and the NSExpression functions (`sum:`, …). Nulls are skipped; a non-numeric element where
/// numbers are needed makes the result null rather than a guess.
enum Statistics {
    static func count(_ items: [Value]) -> Value { .int(Int64(items.count)) }

    /// Sum of the numbers; ints stay exact until they overflow or meet a double. 0 when empty.
    static func sum(_ items: [Value]) -> Value {
        var total: Value = .int(0)
        for item in items where !item.isNull {
            guard item.numericValue != nil else { return .null }
            total = Arithmetic.apply(.add, total, item)
        }
        return total
    }

    static func average(_ items: [Value]) -> Value {
        guard let xs = numbers(items), !xs.isEmpty else { return .null }
        return .double(xs.reduce(0, +) / Double(xs.count))
    }

    /// The smallest (or largest) element; the elements must be mutually ordered (all numbers,
    /// all strings, all dates…), otherwise null. Null when empty.
    static func extreme(_ items: [Value], largest: Bool) -> Value {
        var best: Value? = nil
        for item in items where !item.isNull {
            guard let current = best else { best = item; continue }
            guard let order = Value.compareOrdered(item, current) else { return .null }
            if largest ? order > 0 : order < 0 { best = item }
        }
        return best ?? .null
    }

    /// The middle number, or the mean of the two middle numbers.
    static func median(_ items: [Value]) -> Value {
        guard let xs = numbers(items)?.sorted(), !xs.isEmpty else { return .null }
        let mid = xs.count / 2
        return .double(xs.count % 2 == 1 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2)
    }

    /// The most frequent elements, in order of first appearance (NSExpression returns an array).
    static func mode(_ items: [Value]) -> Value {
        var counts: [Value: Int] = [:]
        var order: [Value] = []
        for item in items where !item.isNull {
            if counts[item] == nil { order.append(item) }
            counts[item, default: 0] += 1
        }
        let top = counts.values.max() ?? 0
        return .array(order.filter { counts[$0] == top })
    }

    /// Population standard deviation.
    static func standardDeviation(_ items: [Value]) -> Value {
        guard let xs = numbers(items), !xs.isEmpty else { return .null }
        let mean = xs.reduce(0, +) / Double(xs.count)
        let variance = xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(xs.count)
        return .double(variance.squareRoot())
    }

    /// Distinct non-null elements in order of first appearance.
    static func distinct(_ items: [Value]) -> Value {
        var seen = Set<Value>()
        return .array(items.filter { !$0.isNull && seen.insert($0).inserted })
    }

    static func union(_ items: [Value]) -> Value { .array(items.filter { !$0.isNull }) }

    /// The numbers among the non-null elements; nil if some element is not a number.
    private static func numbers(_ items: [Value]) -> [Double]? {
        var out: [Double] = []
        for item in items where !item.isNull {
            guard let d = item.numericValue else { return nil }
            out.append(d)
        }
        return out
    }
}
