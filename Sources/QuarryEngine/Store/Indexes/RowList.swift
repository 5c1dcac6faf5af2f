/// Ascending lists of rows (posting lists, null rows, rows by the objects they reach).
extension Array where Element == Int32 {
    /// Adds a row once; rows mostly arrive in order (appends), so the end is checked first.
    mutating func insertRow(_ r: Int32) {
        if last.map({ $0 < r }) ?? true {
            append(r)
            return
        }
        let at = firstIndex(notBelow: r)
        if at == count || self[at] != r { insert(r, at: at) }
    }

    mutating func removeRow(_ r: Int32) {
        let at = firstIndex(notBelow: r)
        if at < count, self[at] == r { remove(at: at) }
    }

    private func firstIndex(notBelow r: Int32) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[mid] < r { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
