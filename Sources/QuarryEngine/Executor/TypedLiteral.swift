import QuarryCore

/// A literal as a typed column compares with it, following the reference's rules for the
/// column's type and the leaf's semantics (docs/SEMANTICS.md#compare): numbers by value across
/// int and double, SQL reading dates from numbers and date strings, every other pair of types
/// unequal and unordered. Nil when the pair needs the reference evaluator.
enum TypedLiteral {
    /// For int and date columns (dates as epoch milliseconds).
    case int(Int64)
    /// A double that is not an integer, against an int or date column.
    case fraction(Double)
    /// For double columns.
    case double(Double)
    /// For string columns: the UTF-8 bytes, already folded with the string options.
    case string([UInt8])
    case bool(Bool)
    /// For pointer columns: the row of the object the literal names (nil: none in the class).
    case pointerRow(Int?)
    /// For geo point columns: equal by coordinates, never ordered.
    case point(GeoPoint)
    /// Values of the two types are never equal and never ordered.
    case incomparable

    static func classify(
        _ c: Value, column: Column, semantics: LeafSemantics, options: StringOptions,
        store: ColumnStore
    ) -> TypedLiteral? {
        let sql = semantics == .sql
        switch (column.kind, c) {
        case (.int, .int(let i)), (.date, .date(let i)):
            return .int(i)
        case (.int, .double(let d)):
            return number(d)
        case (.int, .date(let ms)):
            return sql ? .int(ms) : .incomparable
        case (.date, .int(let i)):
            return sql ? .int(i) : .incomparable
        case (.date, .double(let d)):
            return sql ? number(d) : .incomparable
        case (.date, .string(let s)):
            guard sql else { return .incomparable }
            return BackendlessDate.parse(s).map(TypedLiteral.int)
        case (.double, .double(let d)):
            return .double(d)
        case (.double, .int(let i)):
            return DoubleColumn.holdsExactly(i) ? .double(Double(i)) : nil
        case (.double, .date(let ms)):
            guard sql else { return .incomparable }
            return DoubleColumn.holdsExactly(ms) ? .double(Double(ms)) : nil
        case (.string, .string(let s)):
            return .string(Array(StringFolding.fold(s, options).utf8))
        case (.string, .date):
            // SQL reads each stored string as a date: only the reference does that.
            return sql ? nil : .incomparable
        case (.bool, .bool(let b)):
            return .bool(b)
        case (.geoPoint, .geoPoint(let p)):
            return .point(p)
        case (.string, .pointer):
            // Parse equates a plain objectId with a pointer; elsewhere a string never equals one.
            return semantics == .document ? nil : .incomparable
        case (.pointer(let target), .pointer(let p)):
            return .pointerRow(p.className == target ? store.table(target)?.row(of: p.objectId) : nil)
        case (.pointer(let target), .string(let id)):
            // Parse / Mongo: a plain objectId equals a pointer to that object.
            return semantics == .document ? .pointerRow(store.table(target)?.row(of: id)) : .incomparable
        case (.int, .string), (.int, .bool), (.double, .string), (.double, .bool), (.date, .bool),
            (.string, .int), (.string, .double), (.string, .bool), (.bool, .int), (.bool, .double),
            (.bool, .string), (.bool, .date), (.pointer, .int), (.pointer, .double), (.pointer, .bool),
            (.pointer, .date), (.int, .pointer), (.double, .pointer), (.date, .pointer), (.bool, .pointer),
            (.geoPoint, .int), (.geoPoint, .double), (.geoPoint, .string), (.geoPoint, .date), (.geoPoint, .bool),
            (.geoPoint, .pointer), (.int, .geoPoint), (.double, .geoPoint), (.string, .geoPoint), (.date, .geoPoint),
            (.bool, .geoPoint):
            return .incomparable
        default:
            return nil
        }
    }

    /// A double against integers: an integer when it is one, else a fraction between two.
    private static func number(_ d: Double) -> TypedLiteral {
        if d == d.rounded(.towardZero), d >= -9.223372036854775808e18, d < 9.223372036854775808e18 {
            return .int(Int64(d))
        }
        return .fraction(d)
    }
}

/// An inclusive range of Int64 (empty when `lo > hi`), optionally inverted: the test of an
/// int, date or bool column against a literal.
struct IntRange {
    var lo: Int64
    var hi: Int64
    var invert: Bool

    static let all = IntRange(lo: .min, hi: .max, invert: false)
    static let none = IntRange(lo: 1, hi: 0, invert: false)

    @inline(__always) func contains(_ x: Int64) -> Bool { (x >= lo && x <= hi) != invert }

    /// `x op c`.
    init(_ op: ComparisonOperator, _ c: Int64) {
        switch op {
        case .eq: self.init(lo: c, hi: c, invert: false)
        case .ne: self.init(lo: c, hi: c, invert: true)
        case .lt: self = c == .min ? .none : IntRange(lo: .min, hi: c - 1, invert: false)
        case .le: self.init(lo: .min, hi: c, invert: false)
        case .gt: self = c == .max ? .none : IntRange(lo: c + 1, hi: .max, invert: false)
        case .ge: self.init(lo: c, hi: .max, invert: false)
        }
    }

    /// `x op d` for an integer x and a double d that is not an integer (or out of range, or NaN,
    /// which orders below every number).
    init(_ op: ComparisonOperator, fraction d: Double) {
        let below: Bool  // every integer is below d
        let above: Bool  // every integer is above d
        var floor: Int64 = 0
        if d.isNaN {
            below = false; above = true
        } else if d >= 9.223372036854775808e18 {
            below = true; above = false
        } else if d < -9.223372036854775808e18 {
            below = false; above = true
        } else {
            below = false; above = false
            floor = Int64(d.rounded(.down))
        }
        switch op {
        case .eq: self = .none
        case .ne: self = .all
        case .lt, .le: self = above ? .none : (below ? .all : IntRange(lo: .min, hi: floor, invert: false))
        case .gt, .ge: self = below ? .none : (above ? .all : IntRange(lo: floor + 1, hi: .max, invert: false))
        }
    }

    init(lo: Int64, hi: Int64, invert: Bool) {
        self.lo = lo
        self.hi = hi
        self.invert = invert
    }

    /// Both ranges (neither inverted).
    func intersection(_ o: IntRange) -> IntRange {
        IntRange(lo: Swift.max(lo, o.lo), hi: Swift.min(hi, o.hi), invert: false)
    }
}

/// An inclusive range of doubles in the reference's total order, where NaN sorts below every
/// number and equals only NaN: `nan` says whether NaN passes.
struct DoubleRange {
    var lo: Double
    var hi: Double
    var nan: Bool
    var invert: Bool

    @inline(__always) func contains(_ x: Double) -> Bool {
        (x.isNaN ? nan : (x >= lo && x <= hi)) != invert
    }

    init(lo: Double, hi: Double, nan: Bool, invert: Bool) {
        self.lo = lo
        self.hi = hi
        self.nan = nan
        self.invert = invert
    }

    private static let empty = DoubleRange(lo: .infinity, hi: -.infinity, nan: false, invert: false)

    /// `x op c`.
    init(_ op: ComparisonOperator, _ c: Double) {
        if c.isNaN {
            switch op {
            case .eq: self.init(lo: .infinity, hi: -.infinity, nan: true, invert: false)
            case .ne: self.init(lo: .infinity, hi: -.infinity, nan: true, invert: true)
            case .gt: self.init(lo: -.infinity, hi: .infinity, nan: false, invert: false)
            case .ge: self.init(lo: -.infinity, hi: .infinity, nan: true, invert: false)
            case .lt: self = .empty
            case .le: self.init(lo: .infinity, hi: -.infinity, nan: true, invert: false)
            }
            return
        }
        switch op {
        case .eq: self.init(lo: c, hi: c, nan: false, invert: false)
        case .ne: self.init(lo: c, hi: c, nan: false, invert: true)
        case .le: self.init(lo: -.infinity, hi: c, nan: true, invert: false)
        case .ge: self.init(lo: c, hi: .infinity, nan: false, invert: false)
        case .lt:
            self =
                c == -.infinity
                ? DoubleRange(lo: .infinity, hi: -.infinity, nan: true, invert: false)
                : DoubleRange(lo: -.infinity, hi: c.nextDown, nan: true, invert: false)
        case .gt:
            self = c == .infinity ? .empty : DoubleRange(lo: c.nextUp, hi: .infinity, nan: false, invert: false)
        }
    }

    /// `x op i` for an integer a double may not hold exactly: compared exactly (as the
    /// reference does), through the nearest double.
    init(_ op: ComparisonOperator, integer i: Int64) {
        let d = Double(i)
        // Where the nearest double lies from i (it is an integer, maybe 2^63).
        let above = d >= 9.223372036854775808e18 || Int64(d) > i
        let exact = !above && Int64(d) == i
        if exact {
            self.init(op, d)
            return
        }
        switch op {
        case .eq: self.init(lo: .infinity, hi: -.infinity, nan: false, invert: false)
        case .ne: self.init(lo: .infinity, hi: -.infinity, nan: false, invert: true)
        case .lt, .le: self.init(above ? .lt : .le, d)
        case .gt, .ge: self.init(above ? .ge : .gt, d)
        }
    }

    func intersection(_ o: DoubleRange) -> DoubleRange {
        DoubleRange(lo: Swift.max(lo, o.lo), hi: Swift.min(hi, o.hi), nan: nan && o.nan, invert: false)
    }
}
