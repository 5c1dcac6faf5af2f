/// A total order on index keys that needs nothing but the keys (`Value.sortOrder` for ordered
/// indexes); the geo grid's order depends on its cell size and is passed in instead.
protocol EntryKey {
    /// Negative, zero or positive as `a` sorts before, with or after `b`.
    static func order(_ a: Self, _ b: Self) -> Int
}

/// (key, row) entries sorted by key then row, held in chunks of at most `maxChunk` entries.
///
/// An insert or a removal finds its chunk by binary search and moves at most one chunk's
/// entries (plus one integer per later chunk for the positions), instead of every later entry
/// of one flat array. Entries still have plain integer positions, so a range of keys is a
/// `Range<Int>` as lookups and the planner use it. Rows live in flat `Int32` arrays, so
/// renumbering after a delete is one branch-free pass over them.
struct SortedEntries<Key> {
    struct Chunk {
        var keys: [Key] = []
        var rows: [Int32] = []
    }

    private(set) var chunks: [Chunk] = []
    /// Position of each chunk's first entry.
    private var starts: [Int] = []
    private(set) var count = 0

    /// A chunk splits in two beyond this; a chunk below a quarter of it merges with a neighbour.
    let maxChunk: Int

    /// Negative, zero or positive as one key sorts before, with or after another.
    let order: (Key, Key) -> Int

    init(maxChunk: Int = 1024, order: @escaping (Key, Key) -> Int) {
        self.maxChunk = Swift.max(4, maxChunk)
        self.order = order
    }

    /// Builds from entries already sorted by key (in `order`) then row.
    init(sorted keys: [Key], _ rows: [Int32], maxChunk: Int = 1024, order: @escaping (Key, Key) -> Int) {
        self.init(maxChunk: maxChunk, order: order)
        let fill = Swift.max(1, self.maxChunk * 3 / 4)
        var start = 0
        while start < keys.count {
            let end = Swift.min(keys.count, start + fill)
            chunks.append(Chunk(keys: Array(keys[start..<end]), rows: Array(rows[start..<end])))
            starts.append(start)
            start = end
        }
        count = keys.count
    }

    // MARK: - Reading by position

    /// The chunk holding position `p` (0 ≤ p < count) and the offset in it.
    @inline(__always)
    private func locate(_ p: Int) -> (Int, Int) {
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= p { lo = mid } else { hi = mid - 1 }
        }
        return (lo, p - starts[lo])
    }

    func key(at p: Int) -> Key {
        let (c, o) = locate(p)
        return chunks[c].keys[o]
    }

    func row(at p: Int) -> Int32 {
        let (c, o) = locate(p)
        return chunks[c].rows[o]
    }

    /// Calls `body` with each entry of `range` in order, chunk by chunk.
    func forEach(in range: Range<Int>, _ body: (Key, Int32) -> Void) {
        guard !range.isEmpty else { return }
        var (c, o) = locate(range.lowerBound)
        var left = range.count
        while left > 0 {
            let chunk = chunks[c]
            let n = Swift.min(left, chunk.keys.count - o)
            for i in o..<(o + n) { body(chunk.keys[i], chunk.rows[i]) }
            left -= n
            c += 1
            o = 0
        }
    }

    /// The rows of `range`, in entry order.
    func rows(in range: Range<Int>) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(range.count)
        guard !range.isEmpty else { return out }
        var (c, o) = locate(range.lowerBound)
        var left = range.count
        while left > 0 {
            let n = Swift.min(left, chunks[c].rows.count - o)
            out.append(contentsOf: chunks[c].rows[o..<(o + n)])
            left -= n
            c += 1
            o = 0
        }
        return out
    }

    /// The first position whose entry does not satisfy `before` (which must hold on a prefix
    /// of the entries).
    func firstPosition(where notBefore: (Key, Int32) -> Bool) -> Int {
        // The first chunk whose last entry is not before; then within it.
        var lo = 0, hi = chunks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let chunk = chunks[mid]
            if notBefore(chunk.keys[chunk.keys.count - 1], chunk.rows[chunk.rows.count - 1]) {
                hi = mid
            } else {
                lo = mid + 1
            }
        }
        guard lo < chunks.count else { return count }
        let chunk = chunks[lo]
        var a = 0, b = chunk.keys.count
        while a < b {
            let mid = (a + b) / 2
            if notBefore(chunk.keys[mid], chunk.rows[mid]) { b = mid } else { a = mid + 1 }
        }
        return starts[lo] + a
    }

    // MARK: - Changes

    /// Where (key, row) goes: the chunk and the offset in it.
    private func slot(_ key: Key, _ row: Int32) -> (Int, Int) {
        @inline(__always) func notBefore(_ k: Key, _ r: Int32) -> Bool {
            let c = order(k, key)
            return c > 0 || (c == 0 && r >= row)
        }
        var lo = 0, hi = chunks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let chunk = chunks[mid]
            if notBefore(chunk.keys[chunk.keys.count - 1], chunk.rows[chunk.rows.count - 1]) {
                hi = mid
            } else {
                lo = mid + 1
            }
        }
        // After every entry: the end of the last chunk.
        if lo == chunks.count { return chunks.isEmpty ? (0, 0) : (lo - 1, chunks[lo - 1].keys.count) }
        let chunk = chunks[lo]
        var a = 0, b = chunk.keys.count
        while a < b {
            let mid = (a + b) / 2
            if notBefore(chunk.keys[mid], chunk.rows[mid]) { b = mid } else { a = mid + 1 }
        }
        return (lo, a)
    }

    /// Adds an entry (a duplicate of an existing (key, row) is added again; callers don't).
    mutating func insert(_ key: Key, _ row: Int32) {
        if chunks.isEmpty {
            chunks.append(Chunk(keys: [key], rows: [row]))
            starts.append(0)
            count = 1
            return
        }
        let (c, o) = slot(key, row)
        chunks[c].keys.insert(key, at: o)
        chunks[c].rows.insert(row, at: o)
        count += 1
        shiftStarts(after: c, by: 1)
        if chunks[c].keys.count > maxChunk { split(c) }
    }

    /// Removes the entry (key, row); false when there is none.
    @discardableResult
    mutating func remove(_ key: Key, _ row: Int32) -> Bool {
        guard !chunks.isEmpty else { return false }
        let (c, o) = slot(key, row)
        guard o < chunks[c].keys.count, chunks[c].rows[o] == row, order(chunks[c].keys[o], key) == 0 else {
            return false
        }
        chunks[c].keys.remove(at: o)
        chunks[c].rows.remove(at: o)
        count -= 1
        shiftStarts(after: c, by: -1)
        if chunks[c].keys.isEmpty {
            chunks.remove(at: c)
            starts.remove(at: c)
        } else if chunks[c].keys.count < maxChunk / 4 {
            mergeSmall(c)
        }
        return true
    }

    private mutating func shiftStarts(after c: Int, by delta: Int) {
        starts.withUnsafeMutableBufferPointer { buffer in
            for i in (c + 1)..<buffer.count { buffer[i] += delta }
        }
    }

    private mutating func split(_ c: Int) {
        let half = chunks[c].keys.count / 2
        let tail = Chunk(keys: Array(chunks[c].keys[half...]), rows: Array(chunks[c].rows[half...]))
        chunks[c].keys.removeSubrange(half...)
        chunks[c].rows.removeSubrange(half...)
        chunks.insert(tail, at: c + 1)
        starts.insert(starts[c] + half, at: c + 1)
    }

    /// Joins chunk `c` with a neighbour when both fit in one chunk.
    private mutating func mergeSmall(_ c: Int) {
        let (left, right): (Int, Int)
        if c + 1 < chunks.count, chunks[c].keys.count + chunks[c + 1].keys.count <= maxChunk {
            (left, right) = (c, c + 1)
        } else if c > 0, chunks[c - 1].keys.count + chunks[c].keys.count <= maxChunk {
            (left, right) = (c - 1, c)
        } else {
            return
        }
        let moved = chunks.remove(at: right)
        starts.remove(at: right)
        chunks[left].keys.append(contentsOf: moved.keys)
        chunks[left].rows.append(contentsOf: moved.rows)
    }
}

extension SortedEntries where Key: EntryKey {
    init(maxChunk: Int = 1024) { self.init(maxChunk: maxChunk, order: Key.order) }

    init(sorted keys: [Key], _ rows: [Int32], maxChunk: Int = 1024) {
        self.init(sorted: keys, rows, maxChunk: maxChunk, order: Key.order)
    }
}
