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

    /// Whether any row of the range has its bit set (a word at a time).
    func any(in range: Range<Int>) -> Bool {
        guard !range.isEmpty, range.lowerBound >> 6 < words.count else { return false }
        let last = Swift.min(words.count - 1, (range.upperBound - 1) >> 6)
        for w in (range.lowerBound >> 6)...last {
            var word = words[w]
            if w == range.lowerBound >> 6 { word &= ~((1 << UInt64(range.lowerBound & 63)) &- 1) }
            if w == (range.upperBound - 1) >> 6, range.upperBound & 63 != 0 {
                word &= (1 << UInt64(range.upperBound & 63)) &- 1
            }
            if word != 0 { return true }
        }
        return false
    }

    /// Heap bytes held.
    var bytes: Int { words.capacity * 8 }
}
