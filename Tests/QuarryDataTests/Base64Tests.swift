import Testing
@testable import QuarryData
import QuarryCore
import QuarryTestSupport

@Suite struct Base64Tests {
    // RFC 4648 §10 test vectors.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ])
    func rfcVectors(plain: String, encoded: String) throws {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(try Base64.decode(encoded).get() == Array(plain.utf8))
    }

    @Test func allByteValuesRoundTrip() throws {
        var rng = SplitMix64(seed: 3)
        for n in 0..<64 {
            let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            #expect(try Base64.decode(Base64.encode(bytes)).get() == bytes)
        }
        #expect(Base64.encode([0xFB, 0xFF, 0xBF]) == "+/+/")
    }

    @Test(arguments: [
        ("Zg", "its length 2 is not a multiple of 4 (is '=' padding missing?)"),
        ("Zg==Zg==", "unexpected '=' padding at position 2"),
        ("Z===", "unexpected '=' padding at position 1"),
        ("Zh==", "the character before the '=' padding at position 1 has non-zero unused bits"),
        ("Zm9=", "the character before the '=' padding at position 2 has non-zero unused bits"),
        ("Zm 9", "unexpected space at position 2"),
        ("Zm-_", "unexpected character '-' at position 2"),
        ("Zm\u{E9}", "unexpected byte 0xC3 at position 2"),
    ])
    func strictDecodingRejects(text: String, message: String) {
        guard case .failure(let e) = Base64.decode(text) else {
            Issue.record("'\(text)' should be rejected")
            return
        }
        #expect(e.message == message)
    }
}
