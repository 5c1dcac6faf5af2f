import Foundation
import GRDB
import Quarry
import Synchronization
import Testing

@testable import QuarrySQLite

/// What a store keeps between queries (docs/STORAGE.md#fixed-cost-per-query): the catalog,
/// reused only while no transaction has changed it, and prepared statements, a bounded number
/// per connection. And a row that cannot be read is the store's corruption error.
@Suite struct StoreCacheTests {
    static func person(_ id: String, _ fields: [(String, Value)]) -> StoreChange {
        .save(Record(objectId: id, fields: fields), in: "Person")
    }

    static func compare(_ key: String, _ op: ComparisonOperator, _ v: Value) -> Query {
        Query(className: "Person", predicate: .leaf(.compare(.key(FieldPath(key)), op, .literal(v), []), .document))
    }

    /// Another connection adds a field, widens a field's kind, declares an index and adds a
    /// class; the first store's next queries answer with all of it (an index serves a query
    /// only when the catalog read holds it).
    @Test func catalogChangesByAnotherConnectionAreSeen() throws {
        let file = StoreFile()
        let a = try file.open()
        try a.apply([Self.person("p0", [("age", .int(1))])])
        #expect(try a.query(Self.compare("age", .eq, .int(1))).objectIds == ["p0"])

        let b = try file.open()
        try b.apply(
            [
                Self.person("p1", [("age", .int(2)), ("name", .string("x"))]),
                Self.person("p2", [("age", .double(2.5))]),
            ] + (3..<200).map { Self.person("p\($0)", [("name", .string("n\($0)"))]) })
        try b.declareIndex(.ordered, on: "name", in: "Person")
        try b.apply([.save(Record(objectId: "c0", fields: [("n", .int(1))]), in: "City")])

        #expect(try a.query(Self.compare("name", .eq, .string("x"))).objectIds == ["p1"])
        #expect(try a.query(Self.compare("age", .gt, .int(2))).objectIds == ["p2"])
        #expect(try a.query(Self.compare("age", .lt, .double(2.25))).objectIds == ["p0", "p1"])
        let plan = try a.explanation(Self.compare("name", .eq, .string("x"))).plan
        #expect(plan.contains { $0.contains("USING") }, "\(plan)")
        #expect(try a.schema().classNames == ["Person", "City"])
        #expect(try a.classes().map(\.objectCount) == [200, 1])
    }

    /// A transaction that rolls back leaves no trace in what readers see afterwards.
    @Test func aRolledBackCatalogChangeIsNotSeen() throws {
        let file = StoreFile()
        let store = try file.open()
        try store.apply([Self.person("p0", [("age", .int(1))])])
        _ = try store.query(Self.compare("age", .eq, .int(1)))
        #expect(throws: (any Error).self) {
            try store.transaction { t in
                try t.save(Record(objectId: "p1", fields: [("name", .string("x"))]), in: "Person")
                struct Abort: Error {}
                throw Abort()
            }
        }
        #expect(try store.query(Self.compare("name", .eq, .string("x"))).objectIds.isEmpty)
        #expect(try store.schema().fieldNames(in: "Person") == ["objectId", "age"])
    }

    /// Two hundred statements of different texts: each answers, and no connection keeps more
    /// than its bound.
    @Test func statementsAreKeptUpToTheirBound() throws {
        let file = StoreFile()
        let store = try file.open()
        try store.apply((0..<300).map { Self.person("p\($0)", [("age", .int(Int64($0)))]) })
        for n in 1...200 {
            let q = Query(
                className: "Person",
                predicate: .leaf(
                    .inCollection(.key("age"), .literal(.array((0..<n).map { .int(Int64($0)) })), []), .document))
            #expect(try store.query(q).objectIds.count == n)
        }
        #expect(store.statements.count > 0)
        // The writer and at most `ReaderPool.capacity` readers.
        #expect(store.statements.count <= StatementCache.perConnection * (ReaderPool.capacity + 1))
    }

    /// A statement used again while it runs (a nested use of the same text) gets a second one,
    /// so the first goes on where it was; afterwards one of the two is kept, and used again.
    @Test func aNestedUseOfAStatementGetsASecondOne() throws {
        let file = StoreFile()
        let store = try file.open()
        let sql = "SELECT value FROM json_each('[1,2,3]')"
        try store.reading { db in
            try store.statements.with(db, sql, []) { _ in }
            let kept = store.statements.count
            var outerRows: [Int64] = []
            var innerRows: [Int64] = []
            var used: [ObjectIdentifier] = []
            try store.statements.with(db, sql, []) { o in
                used.append(ObjectIdentifier(o))
                while try o.step() {
                    outerRows.append(o.int64(0))
                    if outerRows.count == 1 {
                        try store.statements.with(db, sql, []) { i in
                            used.append(ObjectIdentifier(i))
                            while try i.step() { innerRows.append(i.int64(0)) }
                        }
                    }
                }
            }
            #expect(outerRows == [1, 2, 3])
            #expect(innerRows == [1, 2, 3])
            #expect(used.count == 2 && used[0] != used[1])
            #expect(store.statements.count == kept)
            try store.statements.with(db, sql, []) { again in #expect(used.contains(ObjectIdentifier(again))) }
        }
    }

    /// The statements of one read see one snapshot: a write committed by another connection
    /// between them is not seen until the next read. A read that fails ends its transaction
    /// (GRDB stops the process when one is left open), and the next read sees the write.
    @Test func aReadIsOneSnapshotAndAFailedReadEndsIt() throws {
        let file = StoreFile()
        let store = try file.open()
        let other = try file.open()
        try store.apply([Self.person("p0", [("age", .int(1))])])
        func count(_ db: ReaderConnection) throws -> Int64 {
            var n: Int64 = -1
            try store.statements.each(db, "SELECT count(*) FROM c1") { n = $0.int64(0) }
            return n
        }
        let (before, after) = try store.reading { db in
            let before = try count(db)
            try other.apply([Self.person("p1", [("age", .int(2))])])
            return (before, try count(db))
        }
        #expect(before == 1 && after == 1)
        struct Failed: Error {}
        #expect(throws: Failed.self) {
            try store.reading { db in
                _ = try count(db)
                throw Failed()
            }
        }
        #expect(throws: (any Error).self) {
            try store.reading { db in try store.statements.each(db, "SELECT nope") { _ in } }
        }
        try other.apply([Self.person("p2", [("age", .int(3))])])
        #expect(try store.reading { db in try count(db) } == 3)
        #expect(try store.query(Self.compare("age", .ge, .int(0))).objectIds == ["p0", "p1", "p2"])
    }

    /// Reads beyond the pool's readers wait for one instead of opening more: with every reader
    /// held by a read that has not ended, another read completes once one ends, and no more
    /// than `ReaderPool.capacity` connections were opened. Each read answers from its own
    /// snapshot on its own connection.
    @Test func readsBeyondTheReadersWaitForOne() throws {
        let file = StoreFile()
        let store = try file.open()
        try store.apply([Self.person("p0", [("age", .int(1))])])
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let answers = Mutex<[Int]>([])
        let connections = Mutex<Set<UInt>>([])
        // Threads of their own: Dispatch's pool may start a block late while others block.
        for _ in 0..<ReaderPool.capacity {
            Thread {
                try? store.reading { db in
                    connections.withLock { _ = $0.insert(UInt(bitPattern: db.handle)) }
                    holding.signal()
                    release.wait()
                }
                finished.signal()
            }.start()
        }
        for _ in 0..<ReaderPool.capacity { holding.wait() }
        #expect(connections.withLock { $0.count } == ReaderPool.capacity)
        Thread {
            let n = (try? store.query(Self.compare("age", .eq, .int(1))).objectIds.count) ?? -1
            answers.withLock { $0.append(n) }
            finished.signal()
        }.start()
        // Time for the extra read to reach the pool while every reader is held; it must wait.
        Thread.sleep(forTimeInterval: 0.2)
        #expect(answers.withLock { $0 }.isEmpty)
        for _ in 0..<ReaderPool.capacity { release.signal() }
        for _ in 0...ReaderPool.capacity { finished.wait() }
        #expect(answers.withLock { $0 } == [1])
        #expect(store.readers.openCount == ReaderPool.capacity)
    }

    /// A reader that cannot be opened (the file was removed before the first read) fails the
    /// read with SQLite's error as `store.sqlite`, and does not count against the readers: more
    /// failed reads than `ReaderPool.capacity` each fail the same way instead of waiting for a
    /// reader that will never come back.
    @Test func aReaderThatCannotOpenFailsTheReadAndFreesItsPlace() throws {
        let file = StoreFile()
        let store = try file.open()
        try store.apply([Self.person("p0", [("age", .int(1))])])
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        let failures = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        // On a thread of its own, so that a read stuck waiting fails the test instead of hanging it.
        Thread {
            for _ in 0...ReaderPool.capacity {
                do throws(Diagnostic) {
                    _ = try store.query(Self.compare("age", .eq, .int(1)))
                    failures.withLock { $0.append("answered") }
                } catch {
                    failures.withLock { $0.append(error.code) }
                }
            }
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(failures.withLock { $0 } == Array(repeating: "store.sqlite", count: ReaderPool.capacity + 1))
        #expect(store.readers.openCount == 0)
    }

    /// A document that is not one is `store.corrupt` naming the object, whether the row is
    /// a query's answer or a pointer's target.
    @Test func aCorruptRowIsAnErrorNamingTheObject() throws {
        let file = StoreFile()
        let store = try file.open()
        try store.apply([
            Self.person("p0", [("age", .int(1))]),
            Self.person("p1", [("age", .int(2)), ("friend", .pointer(Pointer(className: "Person", objectId: "p0")))]),
        ])
        try store.pool.write { db in try db.execute(sql: "UPDATE c1 SET doc = '[[\"age\",' WHERE objectId = 'p0'") }
        #expect {
            try store.query(Self.compare("age", .le, .int(1)))
        } throws: { error in
            (error as? Diagnostic)?.code == "store.corrupt" && (error as? Diagnostic)?.message.contains("p0") == true
        }
        var through = Self.compare("age", .eq, .int(2))
        through.includes = ["friend"]
        #expect {
            try store.query(through)
        } throws: { error in
            (error as? Diagnostic)?.code == "store.corrupt" && (error as? Diagnostic)?.message.contains("p0") == true
        }
        #expect(try store.query(Self.compare("age", .eq, .int(2))).objectIds == ["p1"])
    }

    /// An answer of several batches is decoded on two threads (docs/STORAGE.md#reading-rows):
    /// every record as written, in order; with two corrupt documents in the second batch, the
    /// error names the first.
    @Test func aLargeAnswerIsDecodedOnTwoThreads() throws {
        let file = StoreFile()
        let store = try SQLiteStore(path: file.path, parallelism: ScanParallelism(threads: 2))
        let records = (0..<40_000).map { i in
            Record(
                objectId: "p\(i)",
                fields: [
                    ("age", .int(Int64(i % 100))), ("name", .string("n\(i % 37)")), ("score", .double(Double(i) / 8)),
                ])
        }
        try store.apply(records.map { .save($0, in: "Person") })
        let all = try store.query(Self.compare("age", .ge, .int(0))).records
        #expect(all.count == records.count)
        #expect(all.indices.first { all[$0] != records[$0] } == nil)
        try store.pool.write { db in
            try db.execute(sql: "UPDATE c1 SET doc = '[[\"age\",' WHERE objectId IN ('p25000', 'p33000')")
        }
        #expect {
            try store.query(Self.compare("age", .ge, .int(0)))
        } throws: { error in
            (error as? Diagnostic)?.code == "store.corrupt"
                && (error as? Diagnostic)?.message.contains("p25000 ") == true
        }
    }
}
