import QuarryCore

/// Strings as UTF-8 bytes in one arena, so that comparisons are byte comparisons (UTF-8 byte
/// order is Unicode scalar order) over contiguous memory, with no String per row.
///
/// Entries are spans of the arena (32-bit offsets and lengths). A plain column has one entry
/// per row. A dictionary-encoded one (`coded`, chosen after loading when it takes fewer bytes:
/// names, tags, countries) has one entry per distinct string and a code per row, 1, 2 or 4
/// bytes wide as the dictionary's size needs.
final class StringColumn: Column {
    @exclusivity(unchecked) private var arena: [UInt8] = []
    @exclusivity(unchecked) private var starts: [UInt32] = []
    @exclusivity(unchecked) private var lengths: [UInt32] = []
    /// Each row's entry when `coded`.
    @exclusivity(unchecked) private var codes = PackedCodes()
    private(set) var coded = false
    /// Entries by their bytes (`coded` only).
    private var dictionary = SpanTable()
    /// Bytes of replaced strings still in the arena (plain only: a dictionary keeps its entries).
    private var garbage = 0
    /// Loading: the column takes a dictionary from its first string on, instead of settling
    /// into one afterwards (docs/STORAGE.md#direct-loading); cleared when the strings turn out
    /// too distinct for it, and by `settle`.
    private var codesWhileLoading = false

    override func copy(targets: (String) -> PointerTargets) -> Column { copy() }

    /// A copy sharing the arrays until either side changes them.
    func copy() -> StringColumn {
        let c = StringColumn(kind: kind)
        c.arena = arena
        c.starts = starts
        c.lengths = lengths
        c.codes = codes
        c.coded = coded
        c.dictionary = dictionary
        c.garbage = garbage
        copyBase(to: c)
        return c
    }

    override func storeTyped(_ v: Value, at row: Int) -> Bool {
        guard case .string(let s) = v else { return false }
        return put(s, at: row)
    }

    /// Writes the string for a row; false when the arena cannot grow past 4 GiB (the value is
    /// then kept as an `other` value).
    private func put(_ s: String, at row: Int) -> Bool {
        var s = s
        if codesWhileLoading { codeOrGiveUp() }
        if coded {
            guard let code = s.withUTF8({ entry(for: $0) }) else { return false }
            codes[row] = code
            return true
        }
        let n = s.utf8.count
        guard arena.count + n <= Int(UInt32.max) else { return false }
        garbage += Int(lengths[row])
        starts[row] = UInt32(arena.count)
        lengths[row] = UInt32(n)
        arena.append(contentsOf: s.utf8)
        if garbage > 1 << 16, garbage > arena.count / 2 { compact() }
        return true
    }

    /// The dictionary code of a string, added when new; nil when the arena is full.
    private func entry(for bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        let found = arena.withUnsafeBufferPointer { a in
            starts.withUnsafeBufferPointer { s in
                lengths.withUnsafeBufferPointer { l in
                    dictionary.find(bytes) { Self.span(a, s, l, Int($0)) }
                }
            }
        }
        if let found { return UInt32(found) }
        guard arena.count + bytes.count <= Int(UInt32.max), starts.count < Int(Int32.max) else { return nil }
        let code = starts.count
        starts.append(UInt32(arena.count))
        lengths.append(UInt32(bytes.count))
        arena.append(contentsOf: bytes)
        insertEntry(code)
        return UInt32(code)
    }

    /// For a dictionary-encoded column, the entry holding exactly these bytes, or -1 when none
    /// does (no row holds them); nil for a plain column. Entries are distinct, so a row holds
    /// the bytes exactly when its entry is this one: an equality test compares codes.
    func entry(of bytes: [UInt8]) -> Int? {
        guard coded else { return nil }
        let found = bytes.withUnsafeBufferPointer { b in
            arena.withUnsafeBufferPointer { a in
                starts.withUnsafeBufferPointer { s in
                    lengths.withUnsafeBufferPointer { l in dictionary.find(b) { Self.span(a, s, l, Int($0)) } }
                }
            }
        }
        return found.map(Int.init) ?? -1
    }

    private func insertEntry(_ code: Int) {
        arena.withUnsafeBufferPointer { a in
            starts.withUnsafeBufferPointer { s in
                lengths.withUnsafeBufferPointer { l in
                    dictionary.insert(Int32(code)) { Self.span(a, s, l, Int($0)) }
                }
            }
        }
    }

    @inline(__always)
    private static func span(
        _ a: UnsafeBufferPointer<UInt8>, _ s: UnsafeBufferPointer<UInt32>,
        _ l: UnsafeBufferPointer<UInt32>, _ e: Int
    ) -> UnsafeBufferPointer<UInt8> {
        let start = Int(s[e])
        return UnsafeBufferPointer(rebasing: a[start..<start + Int(l[e])])
    }

    override func typedValue(at row: Int) -> Value { .string(string(at: row)) }

    override var defersValuesWell: Bool { true }

    /// Each distinct string's bytes hashed and compared once (each row's, when plain), with
    /// no `String` made but for the two bounds.
    override func noteTypedValues() {
        var bounds = BoundRows()
        withBytes { s in
            var seen = [Bool](repeating: false, count: s.isCoded ? s.entryCount : 0)
            for row in 0..<rowCount where slots[row] == Slot.value.rawValue {
                if s.isCoded {
                    let e = s.entry(row)
                    guard !seen[e] else { continue }
                    seen[e] = true
                }
                let span = s.span(row)
                statistics.distinct.add(utf8: span)
                bounds.see(row) { _, bound in Bytes.compare(span, s.span(bound)) }
            }
        }
        for row in bounds.rows { statistics.note(typedValue(at: row)) }
    }

    override var typedBytes: Int {
        arena.capacity + (starts.capacity + lengths.capacity) * 4 + codes.bytes + dictionary.bytes
    }

    override func reserveTyped(_ n: Int) {
        if coded {
            codes.reserve(n)
        } else {
            starts.reserveCapacity(starts.count + n)
            lengths.reserveCapacity(lengths.count + n)
        }
    }
    override func appendPlaceholder() {
        // A coded placeholder names entry 0, which exists (a column is coded only once it
        // holds a string), so that every row's span is readable.
        if coded {
            codes.append(0)
        } else {
            starts.append(UInt32(arena.count))
            lengths.append(0)
        }
    }
    override func forgetTyped(at row: Int) {
        guard !coded else { return }
        garbage += Int(lengths[row])
        lengths[row] = 0
    }
    override func settle() {
        if codesWhileLoading {
            codesWhileLoading = false
            // The dictionary stays only where settling a plain column would have made the
            // same one: every entry some row's string, and smaller than a span per row.
            if coded, rowCount < 64 || !dictionaryIsSmaller(keepingEveryEntry: true) { uncode() }
        }
        encodeIfSmaller()
        super.settle()
    }

    override func codeStringsWhileLoading() {
        if rowCount == 0 { codesWhileLoading = true }
    }

    /// Loading: codes from the first string on (the rows before it are placeholders, which
    /// then name that string's entry 0 as coded placeholders do); and at doubling counts from
    /// 65,536 rows, goes back to plain for good when the dictionary stops paying.
    private func codeOrGiveUp() {
        if !coded {
            guard !slots.contains(Slot.value.rawValue) else { return }
            let reserved = starts.capacity
            starts = []
            lengths = []
            codes = PackedCodes([UInt32](repeating: 0, count: rowCount))
            codes.reserve(reserved - rowCount)
            coded = true
            return
        }
        let rows = rowCount
        guard rows >= 1 << 16, rows & (rows - 1) == 0, !dictionaryIsSmaller(keepingEveryEntry: false) else { return }
        uncode()
        codesWhileLoading = false
    }

    /// Whether the dictionary takes fewer bytes than a span per row, by the rule of
    /// `encodeIfSmaller`; with `keepingEveryEntry`, false as well when an entry is no row's
    /// (a replaced string's).
    private func dictionaryIsSmaller(keepingEveryEntry: Bool) -> Bool {
        var held = [Bool](repeating: false, count: keepingEveryEntry ? starts.count : 0)
        var plainArena = 0
        withBytes { s in
            for row in 0..<rowCount where slots[row] == Slot.value.rawValue {
                plainArena += s.count(row)
                if keepingEveryEntry { held[s.entry(row)] = true }
            }
        }
        if keepingEveryEntry, held.contains(false) { return false }
        let plain = plainArena + 8 * rowCount
        let dictionaryBytes = arena.count + starts.count * (8 + 6) + 4 * rowCount
        return dictionaryBytes < plain
    }

    /// Back to one span per row (placeholders and other rows empty); nothing changes when the
    /// rows' strings would not fit one arena.
    private func uncode() {
        guard coded else { return }
        var freshArena: [UInt8] = [], freshStarts: [UInt32] = [], freshLengths: [UInt32] = []
        let fits = withBytes { s in
            var total = 0
            for row in 0..<rowCount where slots[row] == Slot.value.rawValue { total += s.count(row) }
            guard total <= Int(UInt32.max) else { return false }
            freshArena.reserveCapacity(total)
            freshStarts.reserveCapacity(rowCount)
            freshLengths.reserveCapacity(rowCount)
            for row in 0..<rowCount {
                freshStarts.append(UInt32(freshArena.count))
                guard slots[row] == Slot.value.rawValue else {
                    freshLengths.append(0)
                    continue
                }
                let span = s.span(row)
                freshLengths.append(UInt32(span.count))
                freshArena.append(contentsOf: span)
            }
            return true
        }
        guard fits else { return }
        arena = freshArena
        starts = freshStarts
        lengths = freshLengths
        codes = PackedCodes()
        coded = false
        dictionary = SpanTable()
        garbage = 0
    }

    /// Settles a column of distinct strings (the objectIds): only spare capacity goes, as a
    /// dictionary of unique strings is never the smaller form and trying it hashes every row.
    func settleDistinct() {
        super.settle()
    }
    override func trimTyped() {
        arena.trimCapacity()
        starts.trimCapacity()
        lengths.trimCapacity()
        codes.trim()
    }

    func string(at row: Int) -> String { withBytes { $0.string(row) } }

    /// Rewrites the arena without the bytes of replaced strings.
    private func compact() {
        var fresh: [UInt8] = []
        fresh.reserveCapacity(arena.count - garbage)
        for row in starts.indices {
            let start = Int(starts[row]), count = Int(lengths[row])
            starts[row] = UInt32(fresh.count)
            fresh.append(contentsOf: arena[start..<start + count])
        }
        arena = fresh
        garbage = 0
    }

    /// Switches to dictionary encoding when it takes fewer bytes than one span per row (few
    /// distinct strings). Called once a column is loaded; later strings join the dictionary.
    func encodeIfSmaller() {
        guard !coded, rowCount >= 64 else { return }
        // The entries are made as they are found, and rows are compared with them: few and
        // close together in memory, where the row each was first seen in is anywhere in a large
        // arena (a cache miss for nearly every row: 95 ms for the benchmark's million names).
        var table = SpanTable()
        var freshArena: [UInt8] = [], freshStarts: [UInt32] = [], freshLengths: [UInt32] = []
        var rowCodes = [UInt32](repeating: 0, count: rowCount)
        let plain = arena.count + 8 * rowCount
        let pays = withBytes { s in
            for row in 0..<rowCount where slots[row] == Slot.value.rawValue {
                let span = s.span(row)
                let found = freshArena.withUnsafeBufferPointer { a in
                    freshStarts.withUnsafeBufferPointer { st in
                        freshLengths.withUnsafeBufferPointer { l in table.find(span) { Self.span(a, st, l, Int($0)) } }
                    }
                }
                if let code = found {
                    rowCodes[row] = UInt32(code)
                    continue
                }
                let code = freshStarts.count
                // The dictionary only grows: once it is as large as the plain column, it cannot pay.
                guard freshArena.count + span.count + (code + 1) * (8 + 6) + 4 * rowCount < plain else { return false }
                rowCodes[row] = UInt32(code)
                freshStarts.append(UInt32(freshArena.count))
                freshLengths.append(UInt32(span.count))
                freshArena.append(contentsOf: span)
                freshArena.withUnsafeBufferPointer { a in
                    freshStarts.withUnsafeBufferPointer { st in
                        freshLengths.withUnsafeBufferPointer { l in
                            table.insert(Int32(code)) { Self.span(a, st, l, Int($0)) }
                        }
                    }
                }
            }
            return true
        }
        guard pays, !freshStarts.isEmpty else { return }
        arena = freshArena
        starts = freshStarts
        lengths = freshLengths
        codes = PackedCodes(rowCodes)
        coded = true
        garbage = 0
        // Its keys are the entries, numbered by code: the column's dictionary as it is.
        dictionary = table
    }

    /// The arena and spans for a scan; valid only inside `body`.
    func withBytes<R, E: Error>(_ body: (StringSpans) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = arena.withUnsafeBufferPointer { b in
            starts.withUnsafeBufferPointer { s in
                lengths.withUnsafeBufferPointer { l in
                    codes.withReader { c in
                        do throws(E) {
                            return .success(
                                try body(StringSpans(bytes: b, starts: s, lengths: l, codes: c, coded: coded)))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
            }
        }
        return try result.get()
    }
}

/// Read access to a string column's bytes during a scan, by row.
struct StringSpans {
    let bytes: UnsafeBufferPointer<UInt8>
    fileprivate let starts: UnsafeBufferPointer<UInt32>
    fileprivate let lengths: UnsafeBufferPointer<UInt32>
    fileprivate let codes: CodeReader
    fileprivate let coded: Bool

    /// The row's entry (its dictionary code, or the row itself).
    @inline(__always) func entry(_ row: Int) -> Int { coded ? Int(codes[row]) : row }
    /// Whether rows share entries (a dictionary-encoded column).
    var isCoded: Bool { coded }
    /// How many entries there are (distinct strings when coded).
    var entryCount: Int { starts.count }

    @inline(__always) func span(_ row: Int) -> UnsafeBufferPointer<UInt8> {
        let e = entry(row), start = Int(starts[e])
        return UnsafeBufferPointer(rebasing: bytes[start..<start + Int(lengths[e])])
    }
    @inline(__always) func count(_ row: Int) -> Int { Int(lengths[entry(row)]) }
    /// Where the row's bytes start in `bytes`.
    @inline(__always) func start(_ row: Int) -> Int { Int(starts[entry(row)]) }
    @inline(__always) func base(_ row: Int) -> UnsafePointer<UInt8>? {
        bytes.baseAddress.map { $0 + start(row) }
    }
    func string(_ row: Int) -> String { String(decoding: span(row), as: UTF8.self) }
}

extension Array {
    /// Gives back unused capacity (a loaded column's arrays grew by doubling).
    mutating func trimCapacity() {
        guard capacity > count + count / 32 + 16 else { return }
        var fresh: [Element] = []
        fresh.reserveCapacity(count)
        fresh.append(contentsOf: self)
        self = fresh
    }
}
