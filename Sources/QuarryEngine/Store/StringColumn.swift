import QuarryCore

/// Strings as UTF-8 bytes in one arena, so that comparisons are byte comparisons (UTF-8 byte
/// order is Unicode scalar order) over contiguous memory, with no String per row.
final class StringColumn: Column {
    @exclusivity(unchecked) private(set) var bytes: [UInt8] = []
    @exclusivity(unchecked) private(set) var starts: [Int] = []
    @exclusivity(unchecked) private(set) var lengths: [Int32] = []
    /// Bytes of replaced strings still in the arena.
    private var garbage = 0

    override func storeTyped(_ v: Value, at row: Int) -> Bool {
        guard case .string(let s) = v else { return false }
        put(s, at: row)
        return true
    }

    /// Writes the string for a row (used directly for the objectId column).
    func put(_ s: String, at row: Int) {
        garbage += Int(lengths[row])
        starts[row] = bytes.count
        lengths[row] = Int32(s.utf8.count)
        bytes.append(contentsOf: s.utf8)
        if garbage > 1 << 16, garbage > bytes.count / 2 { compact() }
    }

    override func reserveTyped(_ n: Int) {
        starts.reserveCapacity(starts.count + n)
        lengths.reserveCapacity(lengths.count + n)
    }
    override func appendPlaceholder() {
        starts.append(bytes.count)
        lengths.append(0)
    }
    override func removeTyped(at row: Int) {
        garbage += Int(lengths[row])
        starts.remove(at: row)
        lengths.remove(at: row)
    }
    override func forgetTyped(at row: Int) {
        garbage += Int(lengths[row])
        lengths[row] = 0
    }

    override func typedValue(at row: Int) -> Value { .string(string(at: row)) }
    override var typedBytes: Int { bytes.capacity + starts.capacity * 8 + lengths.capacity * 4 }

    func string(at row: Int) -> String {
        let start = starts[row], count = Int(lengths[row])
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<start + count]), as: UTF8.self) }
    }

    /// Rewrites the arena without the bytes of replaced strings.
    private func compact() {
        var fresh: [UInt8] = []
        fresh.reserveCapacity(bytes.count - garbage)
        for row in starts.indices {
            let start = starts[row], count = Int(lengths[row])
            starts[row] = fresh.count
            fresh.append(contentsOf: bytes[start..<start + count])
        }
        bytes = fresh
        garbage = 0
    }

    /// The arena and spans for a scan; valid only inside `body`.
    func withBytes<R, E: Error>(_ body: (StringSpans) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = bytes.withUnsafeBufferPointer { b in
            starts.withUnsafeBufferPointer { s in
                lengths.withUnsafeBufferPointer { l in
                    do throws(E) { return .success(try body(StringSpans(bytes: b, starts: s, lengths: l))) }
                    catch { return .failure(error) }
                }
            }
        }
        return try result.get()
    }
}

/// Read access to a string column's bytes during a scan.
struct StringSpans {
    let bytes: UnsafeBufferPointer<UInt8>
    let starts: UnsafeBufferPointer<Int>
    let lengths: UnsafeBufferPointer<Int32>

    @inline(__always) func span(_ row: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[starts[row]..<starts[row] + Int(lengths[row])])
    }
    @inline(__always) func count(_ row: Int) -> Int { Int(lengths[row]) }
    @inline(__always) func base(_ row: Int) -> UnsafePointer<UInt8>? {
        bytes.baseAddress.map { $0 + starts[row] }
    }
    func string(_ row: Int) -> String { String(decoding: span(row), as: UTF8.self) }
}
