/// Dictionary codes, one per row, each 1, 2 or 4 bytes wide: as narrow as the largest code
/// allows, widened when a larger code arrives (tags take a byte a row, names two).
struct PackedCodes {
    private var raw: [UInt8] = []
    /// Bytes per code.
    private(set) var width = 1

    init(_ codes: [UInt32] = []) {
        let largest = codes.max() ?? 0
        width = Self.width(for: largest)
        raw.reserveCapacity(codes.count * width)
        for c in codes { append(c) }
    }

    var count: Int { raw.count / width }

    subscript(i: Int) -> UInt32 {
        get { raw.withUnsafeBytes { CodeReader(base: $0.baseAddress, width: width)[i] } }
        set {
            if Self.width(for: newValue) > width { widen(to: Self.width(for: newValue)) }
            raw.withUnsafeMutableBytes { b in
                switch width {
                case 1: b[i] = UInt8(newValue)
                case 2: b.storeBytes(of: UInt16(newValue), toByteOffset: i * 2, as: UInt16.self)
                default: b.storeBytes(of: newValue, toByteOffset: i * 4, as: UInt32.self)
                }
            }
        }
    }

    mutating func append(_ code: UInt32) {
        raw.append(contentsOf: repeatElement(0, count: width))
        self[count - 1] = code
    }

    mutating func reserve(_ n: Int) { raw.reserveCapacity(raw.count + n * width) }
    mutating func trim() { raw.trimCapacity() }
    var bytes: Int { raw.capacity }

    /// The codes for a scan; valid only inside `body`.
    func withReader<R>(_ body: (CodeReader) -> R) -> R {
        raw.withUnsafeBytes { body(CodeReader(base: $0.baseAddress, width: width)) }
    }

    private static func width(for code: UInt32) -> Int { code <= 0xFF ? 1 : code <= 0xFFFF ? 2 : 4 }

    private mutating func widen(to newWidth: Int) {
        let codes = (0..<count).map { self[$0] }
        width = newWidth
        raw = []
        raw.reserveCapacity(codes.count * newWidth)
        for c in codes { append(c) }
    }
}

/// Read access to packed codes during a scan.
struct CodeReader {
    let base: UnsafeRawPointer?
    let width: Int

    @inline(__always) subscript(i: Int) -> UInt32 {
        guard let base else { return 0 }
        switch width {
        case 1: return UInt32(base.load(fromByteOffset: i, as: UInt8.self))
        case 2: return UInt32(base.load(fromByteOffset: i * 2, as: UInt16.self))
        default: return base.load(fromByteOffset: i * 4, as: UInt32.self)
        }
    }
}
