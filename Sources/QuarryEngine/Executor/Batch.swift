/// A set of candidate rows that the filters narrow down together: either every row of a range
/// (a scan that no filter has touched yet) or an explicit list of row numbers, in the order the
/// access path produced them. Filters keep that order.
struct Batch {
    /// Rows handled together: large enough to amortize a call per filter, small enough to stay
    /// in cache.
    static let capacity = 4096

    private(set) var rows: [Int32]
    private(set) var count: Int
    /// When set, the batch is every row of this range and `rows` holds nothing yet.
    private(set) var dense: Range<Int>?

    /// Storage is taken on first use: plans build scratch batches they may never run.
    init() {
        rows = []
        count = 0
        dense = nil
    }

    /// Room for `n` rows (a dense batch is written out into `rows` when first refined).
    private mutating func reserve(_ n: Int) {
        if rows.count < n { rows = [Int32](repeating: 0, count: Swift.max(n, Batch.capacity)) }
    }

    mutating func setRange(_ range: Range<Int>) {
        reserve(range.count)
        dense = range
        count = range.count
    }

    mutating func setRows<C: Collection<Int32>>(_ list: C) {
        dense = nil
        reserve(list.count)
        var i = 0
        rows.withUnsafeMutableBufferPointer { out in for r in list { out[i] = r; i += 1 } }
        count = i
    }

    /// Becomes a copy of `other`, reusing this batch's own storage.
    mutating func assign(_ other: Batch) {
        dense = other.dense
        count = other.count
        reserve(other.count)
        guard dense == nil else { return }
        let n = other.count
        rows.withUnsafeMutableBufferPointer { dst in
            other.rows.withUnsafeBufferPointer { src in
                dst.baseAddress!.update(from: src.baseAddress!, count: n)
            }
        }
    }

    mutating func removeAll() {
        dense = nil
        count = 0
    }

    /// The rows, in order.
    func forEach(_ body: (Int) throws -> Void) rethrows {
        if let dense {
            for r in dense { try body(r) }
        } else {
            for i in 0..<count { try body(Int(rows[i])) }
        }
    }

    /// Appends the rows, in order, to `out` (one append of a counted collection: `out` grows
    /// geometrically and no row is checked on its own).
    func append(to out: inout [Int]) {
        if let dense {
            out.append(contentsOf: dense)
        } else {
            rows.withUnsafeBufferPointer { out.append(contentsOf: $0.prefix(count).lazy.map { Int($0) }) }
        }
    }

    /// Keeps the rows for which `keep(position, row)` holds. `position` counts from 0 over the
    /// batch as it was on entry.
    @inline(__always)
    mutating func refine(_ keep: (Int, Int) -> Bool) {
        var n = 0
        if let range = dense {
            dense = nil
            let base = range.lowerBound
            rows.withUnsafeMutableBufferPointer { out in
                for r in range {
                    // Branch-free append: write always, advance when kept.
                    out[n] = Int32(truncatingIfNeeded: r)
                    n &+= keep(r &- base, r) ? 1 : 0
                }
            }
        } else {
            let total = count
            rows.withUnsafeMutableBufferPointer { buf in
                for i in 0..<total {
                    let r = Int(buf[i])
                    buf[n] = Int32(truncatingIfNeeded: r)
                    n &+= keep(i, r) ? 1 : 0
                }
            }
        }
        count = n
    }

    /// `refine` for tests that may throw; rows after the throwing one are left undecided
    /// (the query fails anyway).
    mutating func refineThrowing<E: Error>(_ keep: (Int, Int) throws(E) -> Bool) throws(E) {
        var n = 0
        var failure: E? = nil
        if let range = dense {
            dense = nil
            let base = range.lowerBound
            rows.withUnsafeMutableBufferPointer { out in
                for r in range {
                    do throws(E) {
                        if try keep(r - base, r) { out[n] = Int32(truncatingIfNeeded: r); n += 1 }
                    } catch {
                        failure = error
                        return
                    }
                }
            }
        } else {
            let total = count
            rows.withUnsafeMutableBufferPointer { buf in
                for i in 0..<total {
                    let r = Int(buf[i])
                    do throws(E) {
                        if try keep(i, r) { buf[n] = Int32(truncatingIfNeeded: r); n += 1 }
                    } catch {
                        failure = error
                        return
                    }
                }
            }
        }
        count = n
        if let failure { throw failure }
    }
}
