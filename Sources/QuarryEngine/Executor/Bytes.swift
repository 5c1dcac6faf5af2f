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
        return memcmp(pa, pb, a.count) == 0
    }

    @inline(__always)
    static func hasPrefix(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard s.count >= p.count else { return false }
        guard p.count > 0, let ps = s.baseAddress, let pp = p.baseAddress else { return true }
        return memcmp(ps, pp, p.count) == 0
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
    private let lowercase: Bool
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
            for i in 0..<s.count {
                let c = s[i]
                buffer[i] = c &- 0x41 < 26 ? c | 0x20 : c
            }
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

    var isEmpty: Bool { spans.isEmpty }

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
        var i = Self.hash(s) & mask
        return arena.withUnsafeBufferPointer { a in
            while true {
                let slot = Int(slots[i])
                if slot < 0 { return false }
                let span = spans[slot]
                if Bytes.equal(UnsafeBufferPointer(rebasing: a[span.start..<span.start + span.count]), s) { return true }
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
