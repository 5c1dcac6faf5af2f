import Foundation
import Quarry
import Testing

// This file imports Foundation and Quarry together and names Quarry's public types without a
// module prefix: a Quarry name that shadowed Foundation's (`Predicate`, `Expression`,
// `KeyPath`, `SortDescriptor`, `Data`, `Date`, `URL`) would make it ambiguous and fail to compile
// (docs/API.md#names-and-foundation).

@Suite struct FoundationNamesTests {
    @Test func quarryAndFoundationNamesLiveSideBySide() throws {
        let filter: Filter = .constant(true)
        let query = Query(className: "Contact", predicate: filter, order: [SortKey.key(FieldPath("age"), .ascending)])
        let engine = Engine(database: Database([ClassData(name: "Contact")]), limits: Limits.default)
        let records: [Record] = try engine.run(query).records
        #expect(records.isEmpty)

        let when = Date(timeIntervalSince1970: 1_427_068_800.5)
        let bytes = Data([1, 2, 3])
        let values: [Value] = [
            Value(when)!, Value(bytes), .pointer(Pointer(className: "C", objectId: "x")),
            .geoPoint(GeoPoint(latitude: 1, longitude: 2)), .file(FileRef(name: "f", url: nil)),
        ]
        #expect(values[0].dateValue == when)
        #expect(values[1].dataValue == bytes)

        let predicate: Predicate<Int> = #Predicate { $0 > 1 }
        #expect(try predicate.evaluate(2))
        let keyPath: KeyPath<Record, String> = \.objectId
        #expect(Record(objectId: "a", fields: [])[keyPath: keyPath] == "a")
        let url = URL(fileURLWithPath: Sample.path)
        #expect(try Database(contentsOfFile: url.path).classNames.contains("Contact"))

        let kinds: [Any.Type] = [
            Dialect.self, Diagnostic.self, DiagnosticCode.self, SourceText.self, SourceRange.self, Schema.self,
            InferredSchema.self, CompileOptions.self, Profile.self, Leaf.self, Condition.self, Expr.self,
            Function.self, Quantifier.self, QueryBuilder.self, Constraint.self, Ordering.self, JSON.self,
            JSONParser.self, ParseJSON.self, ValueDecoder.self, ValueEncoder.self, StoredClass.self,
            ExplainReport.self, PlanNode.self, IndexKind.self, QueryResult.self, ResultSet.self,
            ReferenceEvaluator.self, DataFile.self, ISODate.self, Distance.self, DistanceUnit.self,
            Geo.self, RegexOptions.self, StringOptions.self, TextSearch.self, LeafSemantics.self,
        ]
        #expect(kinds.count == 38)
    }
}
