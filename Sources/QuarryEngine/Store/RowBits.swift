/// One bit per row, for facts few columns need (an int stored in a double column, a relation
/// in a pointer-list column): no storage until a bit is set.
struct RowBits {
    private var words: [UInt64] = []

    subscript(row: Int) -> Bool {
        get {
            let w = row >> 6
            return w < words.count && (words[w] >> UInt64(row & 63)) & 1 == 1
        }
        set {
            let w = row >> 6
            if w >= words.count {
                guard newValue else { return }
                words += [UInt64](repeating: 0, count: w + 1 - words.count)
            }
            let bit: UInt64 = 1 << UInt64(row & 63)
            if newValue { words[w] |= bit } else { words[w] &= ~bit }
        }
    }

    /// Row `row` is gone: the bits of later rows move down by one.
    mutating func remove(at row: Int) {
        let w = row >> 6
        guard w < words.count else { return }
        let below: UInt64 = (1 << UInt64(row & 63)) &- 1
        // Each word takes the lowest bit of the next one as its highest.
        func carry(_ i: Int) -> UInt64 { i + 1 < words.count ? (words[i + 1] & 1) << 63 : 0 }
        words[w] = (words[w] & below) | ((words[w] >> 1) & ~below) | carry(w)
        for i in (w + 1)..<words.count { words[i] = (words[i] >> 1) | carry(i) }
    }

    /// Heap bytes held.
    var bytes: Int { words.capacity * 8 }
}
