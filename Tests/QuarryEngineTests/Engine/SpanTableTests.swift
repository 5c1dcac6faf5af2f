import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// `SpanTable.insertAllIfAbsent`, which files a direct load's objectIds a run at a time
/// (docs/STORAGE.md#direct-loading): it files what inserting one key after another files, and
/// stops at the first key an entry already has.
@Suite struct SpanTableTests {
    @Test(arguments: 0..<20 as Range<UInt64>)
    func filingARangeFindsWhatOneByOneFinds(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        // Keys of 0 to 12 bytes from a small alphabet, so that some repeat; every number's key.
        let keys: [[UInt8]] = (0..<Int(rng.next() % 300)).map { _ in
            (0..<Int(rng.next() % 13)).map { _ in UInt8(0x61 + rng.next() % 3) }
        }
        // The keys in one arena, as a column holds them.
        let arena = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: keys.reduce(1) { $0 + $1.count })
        defer { arena.deallocate() }
        var starts: [Int] = [], end = 0
        for k in keys {
            starts.append(end)
            for b in k {
                arena[end] = b
                end += 1
            }
        }
        func key(_ n: Int32) -> UnsafeBufferPointer<UInt8> {
            let start = starts[Int(n)]
            return UnsafeBufferPointer(rebasing: arena[start..<start + keys[Int(n)].count])
        }
        let split = keys.isEmpty ? 0 : Int32(rng.next() % UInt64(keys.count))
        var table = SpanTable()
        var firstRepeat = table.insertAllIfAbsent(0..<split, key)
        if firstRepeat == nil { firstRepeat = table.insertAllIfAbsent(split..<Int32(keys.count), key) }

        let expected = keys.indices.first { i in keys[..<i].contains(keys[i]) }
        #expect(firstRepeat.map(Int.init) == expected)
        let filed = expected ?? keys.count
        #expect(table.count == filed)
        for (i, k) in keys.enumerated() {
            let found = k.withUnsafeBufferPointer { table.find($0, key) }
            let first = keys.firstIndex(of: k)!
            #expect(found.map(Int.init) == (first < filed ? first : nil), "key \(i)")
        }
    }
}
