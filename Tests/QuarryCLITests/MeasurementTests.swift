import Quarry
import Testing
import QuarryTestSupport

@testable import QuarryCLI

/// The bench's memory figure: heap bytes in use before and after a build (glibc mallinfo2),
/// and how the report says it was measured; not the figures themselves.
@Suite struct MeasurementTests {
    @Test func heapGrowthReadsTheHeapAroundTheBuild() {
        let size = 4 << 20
        let (bytes, kept) = Measurement.heapGrowth { [UInt8](repeating: 7, count: size) }
        #expect(kept.count == size)
        // Tests run in parallel and allocate meanwhile: the figure itself is not checked.
        #if canImport(Glibc)
            #expect((Measurement.heapBytesInUse() ?? 0) > size)
            #expect(bytes != nil)
        #else
            #expect(bytes == nil)
        #endif
    }

    @Test func heapGrowthPassesErrorsThrough() {
        struct Boom: Error {}
        #expect(throws: Boom.self) { _ = try Measurement.heapGrowth { () throws(Boom) -> Int in throw Boom() } }
    }

    @Test func theReportSaysHowMemoryWasMeasured() {
        let report = BenchReport(
            results: [], rows: 20_000, className: "Person", executor: "E", indexes: [],
            quarryBytesPerRow: 91.6, sqliteBytesPerRow: 98.2, notes: [])
        let text = report.markdown()
        #expect(text.contains("memory per object: Quarry 92 B (heap in use, glibc mallinfo2"))
        #expect(text.contains("SQLite 98 B (sqlite3_memory_used"))
    }

    /// The engine's own figures by column, which the bench adds to its notes.
    @Test func theEngineReportsItsColumnsBytes() throws {
        let engine = Engine(database: SyntheticData(rows: 2_000).database())
        let columns = try #require(engine.columnBytes(of: "Person"))
        #expect(columns.map(\.field) == ["objectId", "name", "age", "score", "created", "location", "tags", "city"])
        #expect(columns.allSatisfy { $0.bytes > 0 })
        // An int column holds at least 8 bytes a row.
        #expect((columns.first { $0.field == "age" }?.bytes ?? 0) >= 2_000 * 8)
        #expect(engine.columnBytes(of: "Nope") == nil)
    }
}
