import Foundation
import QuarryCore

/// Byte-level string tests. UTF-8 byte order is Unicode scalar order, and a UTF-8 sequence
/// never matches across a scalar boundary, so these agree with the reference's scalar tests.
enum Bytes {
    @inline(__always)
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let n = Swift.min(a.count, b.count)
        if n > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let c = memcmp(pa, pb, n)
            if c != 0 { return c < 0 ? -1 : 1 }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        // Short strings (most keys) compare faster in a loop than through a call.
        if a.count <= 16 {
            for i in 0..<a.count where pa[i] != pb[i] { return false }
            return true
        }
        return memcmp(pa, pb, a.count) == 0
    }

    @inline(__always)
    static func hasPrefix(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard s.count >= p.count else { return false }
        guard p.count > 0, let ps = s.baseAddress, let pp = p.baseAddress else { return true }
        if p.count <= 16 {
            for i in 0..<p.count where ps[i] != pp[i] { return false }
            return true
        }
        return memcmp(ps, pp, p.count) == 0
    }

    @inline(__always)
    static func lower(_ c: UInt8) -> UInt8 { c &- 0x41 < 26 ? c | 0x20 : c }

    // MARK: - Up to eight bytes as one word (little-endian), for short literals

    @inline(__always)
    static func mask(_ n: Int) -> UInt64 { n >= 8 ? ~0 : (1 << UInt64(8 * n)) &- 1 }

    /// The literal's bytes (at most 8) as a word.
    static func word(_ bytes: [UInt8]) -> UInt64 {
        var w: UInt64 = 0
        for (i, b) in bytes.prefix(8).enumerated() { w |= UInt64(b) << UInt64(8 * i) }
        return w
    }

    /// The `n` (at most 8) bytes at `start` as a word; one unaligned load away from the end.
    @inline(__always)
    static func load(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ n: Int) -> UInt64 {
        if start + 8 <= bytes.count, let base = bytes.baseAddress {
            return UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self) & mask(n)
        }
        var w: UInt64 = 0
        for i in 0..<n { w |= UInt64(bytes[start + i]) << UInt64(8 * i) }
        return w
    }

    /// ASCII letters of a word lowercased, all eight at once (the bytes must be ASCII).
    @inline(__always)
    static func lowerWord(_ w: UInt64) -> UInt64 {
        let atLeastA = w &+ 0x3F3F_3F3F_3F3F_3F3F  // high bit set where byte >= 'A'
        let pastZ = w &+ 0x2525_2525_2525_2525  // high bit set where byte > 'Z'
        let upper = atLeastA & ~pastZ & 0x8080_8080_8080_8080
        return w | (upper >> 2)
    }

    /// Whether the folded `s` starts with the (folded) `p`, decided from the bytes of `s` as
    /// long as they are ASCII: folding maps each ASCII byte to one byte (lowercase for
    /// `.caseInsensitive`, itself for diacritics) and never changes bytes before a non-ASCII
    /// scalar. Nil when a non-ASCII byte is reached before the answer is known.
    @inline(__always)
    static func asciiFoldedPrefix(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>, lowercase: Bool)
        -> Bool?
    {
        let n = Swift.min(s.count, p.count)
        for i in 0..<n {
            let c = s[i]
            if c >= 0x80 { return nil }
            if (lowercase ? Self.lower(c) : c) != p[i] { return false }
        }
        if s.count >= p.count { return true }
        // `s` is shorter: all ASCII, so its folding is as short.
        return false
    }

    /// Whether the folded `s` equals the (folded) `p`, decided when `s` is ASCII; nil otherwise.
    @inline(__always)
    static func asciiFoldedEqual(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>, lowercase: Bool)
        -> Bool?
    {
        if s.count != p.count { return isASCII(s) ? false : nil }
        var same = true
        for i in 0..<s.count {
            let c = s[i]
            if c >= 0x80 { return nil }
            if (lowercase ? Self.lower(c) : c) != p[i] { same = false }
        }
        return same
    }

    /// Whether the folded `s` contains the (folded, ASCII) `p`, decided from the bytes of `s`:
    /// a window of ASCII bytes that matches stays a match after folding (folding never changes
    /// an ASCII scalar's neighbours), and an all-ASCII `s` folds byte for byte. Nil when `s` has
    /// non-ASCII bytes and no ASCII match: folding might join or create one.
    @inline(__always)
    static func asciiFoldedContains(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>, lowercase: Bool)
        -> Bool?
    {
        let n = s.count, m = p.count
        guard m > 0 else { return true }
        let first = p[0]
        // The first byte in either case (only letters have two).
        let other = lowercase && first &- 0x61 < 26 ? first ^ 0x20 : first
        var high: UInt8 = 0
        var i = 0
        if n >= m {
            let last = n - m
            while i <= last {
                let c = s[i]
                high |= c
                if c == first || c == other {
                    var j = 1
                    while j < m {
                        let d = s[i + j]
                        if (lowercase ? Self.lower(d) : d) != p[j] { break }
                        j += 1
                    }
                    if j == m { return true }
                }
                i += 1
            }
        }
        while i < n {
            high |= s[i]
            i += 1
        }
        return high < 0x80 ? false : nil
    }

    @inline(__always)
    static func hasSuffix(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard s.count >= p.count else { return false }
        guard p.count > 0, let ps = s.baseAddress, let pp = p.baseAddress else { return true }
        return memcmp(ps + (s.count - p.count), pp, p.count) == 0
    }

    static func contains(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard p.count > 0 else { return true }
        guard s.count >= p.count, let ps = s.baseAddress, let pp = p.baseAddress else { return false }
        let first = pp[0], last = s.count - p.count
        var i = 0
        while i <= last {
            if ps[i] == first, memcmp(ps + i, pp, p.count) == 0 { return true }
            i += 1
        }
        return false
    }

    @inline(__always)
    static func isASCII(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        var acc: UInt8 = 0
        for b in s { acc |= b }
        return acc < 0x80
    }
}

/// Applies string options to stored bytes as `StringFolding.fold` does: for ASCII, folding is
/// lowercasing (case-insensitive) or nothing (diacritics only), done in a reused buffer; other
/// strings go through `StringFolding`.
final class ByteFolder {
    let options: StringOptions
    let lowercase: Bool
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int

    init(_ options: StringOptions) {
        self.options = options
        lowercase = options.contains(.caseInsensitive)
        capacity = 64
        buffer = .allocate(capacity: 64)
    }
    deinit { buffer.deallocate() }

    @inline(__always)
    func fold<R>(_ s: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if options.isEmpty { return body(s) }
        if Bytes.isASCII(s) {
            if !lowercase { return body(s) }
            if s.count > capacity {
                buffer.deallocate()
                capacity = s.count * 2
                buffer = .allocate(capacity: capacity)
            }
            for i in 0..<s.count { buffer[i] = Bytes.lower(s[i]) }
            return body(UnsafeBufferPointer(start: buffer, count: s.count))
        }
        let folded = Array(StringFolding.fold(String(decoding: s, as: UTF8.self), options).utf8)
        return folded.withUnsafeBufferPointer(body)
    }
}

/// A set of byte strings, looked up without building a String (IN lists, inner values).
struct ByteStringSet {
    private var arena: [UInt8] = []
    private var spans: [(start: Int, count: Int)] = []
    private var slots: [Int32]
    private let mask: Int

    init(_ members: [[UInt8]]) {
        var size = 8
        while size < members.count * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        for m in members { insert(m) }
    }

    private mutating func insert(_ m: [UInt8]) {
        let found = m.withUnsafeBufferPointer { contains($0) }
        if found { return }
        var i = m.withUnsafeBufferPointer { Self.hash($0) } & mask
        while slots[i] >= 0 { i = (i + 1) & mask }
        slots[i] = Int32(spans.count)
        spans.append((arena.count, m.count))
        arena.append(contentsOf: m)
    }

    func contains(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        // A few members: comparing beats hashing.
        if spans.count <= 8 {
            return arena.withUnsafeBufferPointer { a in
                for span in spans where span.count == s.count {
                    if Bytes.equal(UnsafeBufferPointer(rebasing: a[span.start..<span.start + span.count]), s) {
                        return true
                    }
                }
                return false
            }
        }
        var i = Self.hash(s) & mask
        return arena.withUnsafeBufferPointer { a in
            while true {
                let slot = Int(slots[i])
                if slot < 0 { return false }
                let span = spans[slot]
                if Bytes.equal(UnsafeBufferPointer(rebasing: a[span.start..<span.start + span.count]), s) {
                    return true
                }
                i = (i + 1) & mask
            }
        }
    }

    /// FNV-1a.
    @inline(__always)
    private static func hash(_ s: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }
}
