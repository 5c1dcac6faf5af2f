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
    mutating func prepare(_ record: Record, in className: String) throws -> Row {
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
        var row = Row(
            objectId: record.objectId, createdAt: Self.millis(record.fields["createdAt"]),
            updatedAt: Self.millis(record.fields["updatedAt"]), doc: TextBytes(), raw: TextBytes())
        PostgresRecordCodec.doc(record, number: { c.field($0)!.number }, to: &row.doc.bytes)
        StoredRecordCodec.write(record, to: &row.raw.bytes)
        return row
    }

    /// One object's row as the upsert binds it.
    struct Row {
        let objectId: String
        let createdAt: String?
        let updatedAt: String?
        var doc: TextBytes
        var raw: TextBytes
        var byteCount: Int { objectId.utf8.count + doc.bytes.count + raw.bytes.count }
    }

    /// Text already encoded as UTF-8 (valid: it is written from strings), bound as `text`
    /// without a `String` made of it, as PostgresNIO binds a `String` (also in a `text[]`).
    struct TextBytes: PostgresNonThrowingEncodable, PostgresArrayEncodable {
        static var psqlType: PostgresDataType { .text }
        static var psqlArrayType: PostgresDataType { .textArray }
        static var psqlFormat: PostgresFormat { .binary }
        var bytes: [UInt8] = []

        func encode<JSONEncoder: PostgresJSONEncoder>(
            into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
        ) {
            byteBuffer.writeBytes(bytes)
        }
    }

    /// One upsert of several rows; their objectIds must differ.
    func upsert(_ rows: [Row], into table: String) throws {
        guard !rows.isEmpty else { return }
        _ = try sendUpsert(rows, into: table).wait()
    }

    /// `upsert` without waiting for it: the statement is sent, and the future completes with it.
    /// The rows go as five arrays, one a column, in binary (docs/STORAGE.md#postgresql-connections):
    /// PostgreSQL then parses a short statement and five parameters, where a multi-row VALUES
    /// list made it parse five parameters an object. `unnest … WITH ORDINALITY` keeps their
    /// order, which gives each its `seq`.
    func sendUpsert(_ rows: [Row], into table: String) -> EventLoopFuture<PostgresQueryResult> {
        var ids: [String] = [], created: [String] = [], updated: [String] = []
        var docs: [TextBytes] = [], raws: [TextBytes] = []
        ids.reserveCapacity(rows.count)
        created.reserveCapacity(rows.count)
        updated.reserveCapacity(rows.count)
        docs.reserveCapacity(rows.count)
        raws.reserveCapacity(rows.count)
        for row in rows {
            ids.append(row.objectId)
            // A date is its epoch milliseconds' digits, never empty: empty stands for none.
            created.append(row.createdAt ?? "")
            updated.append(row.updatedAt ?? "")
            docs.append(row.doc)
            raws.append(row.raw)
        }
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(ids)
        bindings.append(created)
        bindings.append(updated)
        bindings.append(docs)
        bindings.append(raws)
        return session.send(
            """
            INSERT INTO \(table) (objectid, createdat, updatedat, doc, raw)
            SELECT o, NULLIF(c, '')::bigint, NULLIF(u, '')::bigint, d::jsonb, r
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS x(o, c, u, d, r, n)
            ORDER BY n
            ON CONFLICT (objectid) DO UPDATE SET createdat = excluded.createdat, updatedat = excluded.updatedat,
                doc = excluded.doc, raw = excluded.raw
            """, bindings)
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
