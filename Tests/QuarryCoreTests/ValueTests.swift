import Testing
@testable import QuarryCore

@Suite struct ValueTests {
    @Test func numbersCompareByValueAcrossIntAndDouble() {
        #expect(Value.int(21) == Value.double(21.0))
        #expect(Value.int(21).hashValue == Value.double(21.0).hashValue)
        #expect(Value.int(21) != Value.double(21.5))
        #expect(Value.compareOrdered(.int(2), .double(2.5)) == -1)
        // 2^53 + 1 is not representable as a double: no rounding in the comparison.
        #expect(Value.int(9_007_199_254_740_993) != Value.double(9_007_199_254_740_992))
        #expect(Value.compareOrdered(.int(9_007_199_254_740_993), .double(9_007_199_254_740_992)) == 1)
    }

    @Test func stringsCompareByScalarsWithoutNormalization() {
        let composed = Value.string("\u{E9}")  // é
        let decomposed = Value.string("e\u{301}")  // e + combining acute
        #expect(composed != decomposed)
        #expect(Value.compareOrdered("a", "b") == -1)
        #expect(Value.compareOrdered("Z", "a") == -1)  // by scalar value, not locale
    }

    @Test func orderedComparisonAcrossTypesIsUndefined() {
        #expect(Value.compareOrdered(.int(1), .string("1")) == nil)
        #expect(Value.compareOrdered(.null, .null) == nil)
    }

    @Test func crossTypeSortOrderFollowsMongo() {
        let sorted: [Value] = [
            .date(0), .bool(false), .pointer(Pointer(className: "A", objectId: "x")),
            .bytes([1]), .array([]), .object([:]), .string("s"), .int(3), .null,
        ]
        .sorted { Value.sortOrder($0, $1) < 0 }
        #expect(
            sorted.map(\.typeName) == [
                "null", "int", "string", "object", "array", "bytes",
                "pointer", "bool", "date",
            ])
    }

    @Test func codableRoundTrip() throws {
        let values: [Value] = [
            .null, .bool(true), .int(-5), .double(2.5), .double(.infinity), .string("x"),
            .date(1427068800000), .bytes([0, 255]),
            .geoPoint(GeoPoint(latitude: 1, longitude: 2)),
            .pointer(Pointer(className: "A", objectId: "b")),
            .relation(className: "Post", objectIds: ["p1"]),
            .array([.int(1), .string("a")]), .object(["k": .bool(false)]),
        ]
        for v in values {
            let data = try JSONEncoder().encode(v)
            #expect(try JSONDecoder().decode(Value.self, from: data) == v)
        }
    }
}

import Foundation
