import QuarryCore

/// `POLYGON((lon lat, lon lat, …, lon lat))`: one closed ring in WKT's longitude-latitude order.
/// Errors are located inside the string literal that holds the text.
enum WKTPolygon {
    /// The ring's vertices without the closing repeat of the first one.
    /// `base` is the source offset of the text's first byte (just after the opening quote).
    static func parse(_ text: String, base: Int) throws(Diagnostic) -> [GeoPoint] {
        var reader = Reader(bytes: Array(text.utf8), base: base)
        return try reader.polygon()
    }

    /// The WKT of a ring (closing it by repeating the first vertex).
    static func text(_ vertices: [GeoPoint]) -> String {
        let ring = vertices + (vertices.first.map { [$0] } ?? [])
        return "POLYGON(("
            + ring.map { "\(NumberText.double($0.longitude)) \(NumberText.double($0.latitude))" }
            .joined(separator: ", ") + "))"
    }

    private struct Reader {
        let bytes: [UInt8]
        let base: Int
        var i = 0

        mutating func polygon() throws(Diagnostic) -> [GeoPoint] {
            skipSpaces()
            let word = Array("POLYGON".utf8)
            guard i + word.count <= bytes.count,
                zip(bytes[i..<i + word.count], word).allSatisfy({ $0 | 0x20 == $1 | 0x20 })
            else {
                throw error(
                    "expected a WKT polygon, as in 'POLYGON((lon lat, lon lat, lon lat, lon lat))'",
                    at: i, length: max(1, min(bytes.count - i, word.count)))
            }
            i += word.count
            try expect(UInt8(ascii: "("), "'(' after POLYGON")
            try expect(UInt8(ascii: "("), "'(' to open the polygon's ring")
            var ring: [(GeoPoint, Int, Int)] = []
            while true {
                ring.append(try point())
                skipSpaces()
                if peek == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                try expect(UInt8(ascii: ")"), "',' or ')' after a point")
                break
            }
            skipSpaces()
            if peek == UInt8(ascii: ",") {
                throw error("a polygon with holes (several rings) cannot be searched; give one ring", at: i, length: 1)
            }
            try expect(UInt8(ascii: ")"), "')' to close the polygon")
            skipSpaces()
            if i < bytes.count { throw error("unexpected text after the polygon", at: i, length: bytes.count - i) }

            guard let first = ring.first, let last = ring.last, ring.count >= 4 else {
                throw error(
                    "a polygon ring needs at least 4 points (3 corners and the first one repeated to close it)",
                    at: 0, length: bytes.count)
            }
            guard first.0 == last.0 else {
                throw error(
                    "the polygon ring is not closed: its last point must repeat its first",
                    at: last.1, length: last.2)
            }
            return ring.dropLast().map(\.0)
        }

        /// `lon lat`, with the point's offset and length.
        mutating func point() throws(Diagnostic) -> (GeoPoint, Int, Int) {
            skipSpaces()
            let start = i
            let (lon, lonStart) = try number("a longitude")
            let lonEnd = i
            guard skipSpaces() else {
                throw error("expected a space and a latitude after the longitude", at: i, length: 1)
            }
            let (lat, latStart) = try number("a latitude")
            guard (-180...180).contains(lon) else {
                throw Diagnostic(
                    .geo.invalidCoordinate,
                    "longitude \(NumberText.double(lon)) is outside -180…180 (WKT points are 'longitude latitude')",
                    at: SourceRange(offset: base + lonStart, length: lonEnd - lonStart))
            }
            guard (-90...90).contains(lat) else {
                throw Diagnostic(
                    .geo.invalidCoordinate,
                    "latitude \(NumberText.double(lat)) is outside -90…90 (WKT points are 'longitude latitude')",
                    at: SourceRange(offset: base + latStart, length: i - latStart))
            }
            return (GeoPoint(latitude: lat, longitude: lon), start, i - start)
        }

        mutating func number(_ what: String) throws(Diagnostic) -> (Double, Int) {
            let start = i
            if peek == UInt8(ascii: "-") || peek == UInt8(ascii: "+") { i += 1 }
            while let b = peek,
                (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: ".")
                    || b | 0x20 == UInt8(ascii: "e")
                    || ((b == UInt8(ascii: "-") || b == UInt8(ascii: "+")) && bytes[i - 1] | 0x20 == UInt8(ascii: "e"))
            {
                i += 1
            }
            let end = i
            let read = bytes.withUnsafeBufferPointer {
                DecimalText.double(UnsafeBufferPointer(rebasing: $0[start..<end]))
            }
            guard i > start, let d = read, d.isFinite else {
                throw error("expected \(what), a number", at: start, length: max(1, i - start))
            }
            return (d, start)
        }

        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        @discardableResult
        mutating func skipSpaces() -> Bool {
            let start = i
            while let b = peek, b == 0x20 || (b >= 0x09 && b <= 0x0D) { i += 1 }
            return i > start
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws(Diagnostic) {
            skipSpaces()
            guard peek == byte else { throw error("expected \(what)", at: i, length: 1) }
            i += 1
        }

        func error(_ message: String, at offset: Int, length: Int) -> Diagnostic {
            // Clamp to the text so a missing piece at its end points at the closing quote.
            let o = min(offset, bytes.count)
            return Diagnostic(
                .geo.invalidWKT, message,
                at: SourceRange(offset: base + o, length: max(length, 1)))
        }
    }
}
