extension String {
    /// Scalar-exact equality (`==` also equates canonically equivalent strings): the UTF-8
    /// bytes, compared in place when both strings are contiguous, as native ones are (walking
    /// two UTF-8 views a byte at a time costs several times more).
    @inlinable package static func sameUTF8(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let inPlace = a.utf8.withContiguousStorageIfAvailable { pa in
            b.utf8.withContiguousStorageIfAvailable { pb in pa.elementsEqual(pb) }
        }
        return (inPlace ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }
}
