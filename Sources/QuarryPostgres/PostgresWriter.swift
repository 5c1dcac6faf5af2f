import NIOCore
import PostgresNIO
import Quarry

/// Saves and deletes inside the writer's transaction, keeping the catalog's kinds in step
/// with what is saved (docs/STORAGE.md#postgresql-schema).
struct PostgresWriter {
    var catalog: PostgresCatalog
    let session: PostgresSession

    /// Inserts the object, or replaces the one with its objectId in place (same `seq`, so
    /// insertion order is kept).
    mutating func save(_ record: Record, in className: String) throws {
        let row = try prepare(record, in: className)
        try upsert([row], into: catalog.classes[className]!.table)
    }

    /// Brings the catalog up to date with the object's values; returns its row's bindings.
    mutating func prepare(_ record: Record, in className: String) throws -> [String?] {
        try PostgresCatalog.storable(record.objectId, "an objectId")
        _ = try catalog.ensureClass(className, session)
        for name in record.fieldOrder {
            guard let value = record.fields[name] else { continue }
            var field = try catalog.ensureField(name, in: className, session)
            let before = field
            // Most values are of their field's kind already: compared first, they are not merged.
            if let k = PostgresKind.of(value), field.kind != k {
                field.kind = field.kind.map { $0.merged(with: k) } ?? k
            }
            // Merged as `ClassData` merges types, so the schema reads as the same objects' would.
            if let t = FieldType.of(value) { field.type = field.type.map { $0 == t ? $0 : $0.merged(with: t) } ?? t }
            if field.kind != before.kind || field.type != before.type {
                try catalog.update(field, in: className, session)
            }
        }
        let c = catalog.classes[className]!
        return [
            record.objectId, Self.millis(record.fields["createdAt"]), Self.millis(record.fields["updatedAt"]),
            PostgresRecordCodec.doc(record) { c.field($0)!.number }, StoredRecordCodec.encode(record),
        ]
    }

    /// One multi-row upsert; the rows' objectIds must differ.
    func upsert(_ rows: [[String?]], into table: String) throws {
        guard !rows.isEmpty else { return }
        _ = try sendUpsert(rows, into: table).wait()
    }

    /// `upsert` without waiting for it: the statement is sent, and the future completes with it.
    func sendUpsert(_ rows: [[String?]], into table: String) -> EventLoopFuture<PostgresQueryResult> {
        let values = (0..<rows.count).map { r in
            let b = r * 5
            return "($\(b + 1), $\(b + 2)::bigint, $\(b + 3)::bigint, $\(b + 4)::jsonb, $\(b + 5))"
        }
        return session.send(
            """
            INSERT INTO \(table) (objectid, createdat, updatedat, doc, raw) VALUES \(values.joined(separator: ", "))
            ON CONFLICT (objectid) DO UPDATE SET createdat = excluded.createdat, updatedat = excluded.updatedat,
                doc = excluded.doc, raw = excluded.raw
            """, rows.flatMap { $0 })
    }

    /// Removes the object if it is there.
    func delete(_ objectId: String, from className: String) throws {
        guard let c = catalog.classes[className], !objectId.utf8.contains(0) else { return }
        try session.run("DELETE FROM \(c.table) WHERE objectid = $1", [objectId])
    }

    private static func millis(_ v: Value?) -> String? {
        if case .date(let ms)? = v { return String(ms) }
        return nil
    }
}
