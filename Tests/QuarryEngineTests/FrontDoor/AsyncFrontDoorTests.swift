import Foundation
import Quarry
import Testing

/// The `async` twins: same answers, cancellation and the deadline honoured.
@Suite struct AsyncFrontDoorTests {
    struct Order: Decodable, Equatable {
        var objectId: String
        var orderAmount: Double
    }

    @Test func asyncCallsGiveTheSyncAnswers() async throws {
        let engine = try Sample.engine()
        let text = "age > 20"
        let records: [Record] = try await engine.find("Contact", where: text)
        #expect(records.map(\.objectId) == Self.syncFind(engine, text))
        let n: Int = try await engine.count("Contact", where: text)
        #expect(n == records.count)
        let first: Record? = try await engine.first("Contact", where: text)
        #expect(first?.objectId == records.first?.objectId)
        let report: ExplainReport = try await engine.explain("Contact", where: text, analyze: true)
        #expect(report.root.actualRows == n)
        let orders: [Order] = try await engine.find(Order.self, where: "orderAmount >= 100")
        #expect(orders.map(\.objectId) == Self.syncFind(engine, "orderAmount >= 100", in: "Order"))
        let builder = QueryBuilder("Order").where("orderAmount" >= 100)
        let built: [Record] = try await builder.find(in: engine)
        #expect(built.map(\.objectId) == orders.map(\.objectId))
        let builtCount: Int = try await builder.count(in: engine)
        #expect(builtCount == orders.count)
    }

    /// The synchronous answer, from a synchronous context.
    static func syncFind(_ engine: Engine, _ text: String, in className: String = "Contact") -> [String] {
        (try? engine.find(className, where: text).map(\.objectId)) ?? ["failed"]
    }

    @Test func aCancelledTaskDoesNotRunTheQuery() async throws {
        let engine = try Sample.engine()
        let task = Task { () async throws(Diagnostic) -> [Record] in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await engine.find("Contact", where: "age > 20")
        }
        do {
            _ = try await task.value
            Issue.record("expected query.cancelled")
        } catch let error as Diagnostic {
            #expect(error.code == "query.cancelled")
        }
    }

    /// A query already running when its task is cancelled stops at the executor's next batch.
    @Test func cancellationStopsARunningQuery() async throws {
        var db = Database()
        for i in 0..<50_000 { db.insert(Record(objectId: "r\(i)", fields: [("n", .int(Int64(i)))]), into: "Row") }
        let engine = Engine(database: db)
        let task = Task { () async throws(Diagnostic) -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            // Compiled and started synchronously: only the executor's checks can stop it.
            let query = try engine.compile("n >= 0", on: "Row")
            return try engine.run(query).records.count
        }
        do {
            _ = try await task.value
            Issue.record("expected query.cancelled")
        } catch let error as Diagnostic {
            #expect(error.code == "query.cancelled")
        }
    }

    @Test func theEnginesDeadlineEndsAnAsyncQuery() async throws {
        let engine = try Sample.engine(limits: Limits(deadlineSeconds: 0))
        do {
            _ = try await engine.find("Contact", where: "age > 20")
            Issue.record("expected limit.deadline")
        } catch {
            #expect(error.code == "limit.deadline")
        }
    }
}
