import QuarryCore

/// Base64 (RFC 4648 §4, standard alphabet) for Parse's `Bytes` wrapper. Decoding is strict:
/// padding to a multiple of 4 characters, no whitespace or line breaks, and zero padding bits,
/// so every byte string has exactly one accepted encoding.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            for shift in [18, 12, 6, 0] as [UInt32] { out.append(alphabet[Int(n >> shift & 0x3F)]) }
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int(n >> 18 & 0x3F)])
            out.append(alphabet[Int(n >> 12 & 0x3F)])
            out.append(rest == 2 ? alphabet[Int(n >> 6 & 0x3F)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes, or a message saying what is wrong (positions count UTF-8 bytes from 0).
    static func decode(_ text: String) -> Result<[UInt8], Base64Error> {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else {
            return .failure(Base64Error("its length \(chars.count) is not a multiple of 4 (is '=' padding missing?)"))
        }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var i = 0
        while i < chars.count {
            let isLast = i + 4 == chars.count
            // Padding: only in the last group, as "xx==" or "xxx=".
            var padding = 0
            if isLast {
                if chars[i + 3] == UInt8(ascii: "=") { padding = chars[i + 2] == UInt8(ascii: "=") ? 2 : 1 }
            }
            var n: UInt32 = 0
            for k in 0..<4 {
                let c = chars[i + k]
                if k >= 4 - padding {
                    n <<= 6
                    continue
                }
                let v = sextets[Int(c)]
                guard v != 0xFF else {
                    let what = c == UInt8(ascii: "=") ? "'=' padding" : describe(c)
                    return .failure(Base64Error("unexpected \(what) at position \(i + k)"))
                }
                n = n << 6 | UInt32(v)
            }
            if padding == 2 && n & 0xFFFF != 0 || padding == 1 && n & 0xFF != 0 {
                return .failure(
                    Base64Error(
                        "the character before the '=' padding at position \(i + 3 - padding) has non-zero unused bits"))
            }
            out.append(UInt8(n >> 16 & 0xFF))
            if padding < 2 { out.append(UInt8(n >> 8 & 0xFF)) }
            if padding < 1 { out.append(UInt8(n & 0xFF)) }
            i += 4
        }
        return .success(out)
    }

    private static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x20: return "space"
        case 0x0A, 0x0D: return "line break"
        case 0x21..<0x7F: return "character '\(Character(Unicode.Scalar(byte)))'"
        default: return "byte 0x\(hexByte(byte))"
        }
    }
}

struct Base64Error: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
