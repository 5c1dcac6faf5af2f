import Quarry

/// Writes `run`'s answer in the chosen form.
enum ResultPrinter {
    /// NDJSON: one Parse REST JSON object a line, in result order.
    static func ndjson(_ records: [Record], to sink: any TextSink) {
        var bytes: [UInt8] = []
        for record in records {
            ParseJSON.write(record, to: &bytes)
            bytes.append(0x0A)
            if bytes.count >= 1 << 16 { flush(&bytes, to: sink) }
        }
        flush(&bytes, to: sink)
    }

    /// `{"results":[…]}` as Parse's REST API answers a find (and as `--data` reads back),
    /// one object a line.
    static func json(_ records: [Record], to sink: any TextSink) {
        var bytes = Array("{\"results\":[".utf8)
        for (i, record) in records.enumerated() {
            bytes.append(contentsOf: i == 0 ? [0x0A] : [0x2C, 0x0A])
            ParseJSON.write(record, to: &bytes)
            if bytes.count >= 1 << 16 { flush(&bytes, to: sink) }
        }
        bytes.append(contentsOf: Array((records.isEmpty ? "]}\n" : "\n]}\n").utf8))
        flush(&bytes, to: sink)
    }

    /// Aligned columns: objectId, then the fields the results have, in the class's field order
    /// (`fieldOrder`), then any others in the order first met.
    static func table(_ records: [Record], fieldOrder: [String], to sink: any TextSink) {
        var present: Set<String> = []
        for record in records { present.formUnion(record.fields.keys) }
        var columns = ["objectId"]
        var seen: Set<String> = ["objectId"]
        for name in fieldOrder where present.contains(name) && seen.insert(name).inserted { columns.append(name) }
        for record in records {
            for name in record.fieldOrder where seen.insert(name).inserted { columns.append(name) }
        }
        let rows = records.map { record in columns.map { CellText.cell(record[$0]) } }
        sink.write(TextTable(columns: columns, rows: rows).render())
    }

    static func ids(_ records: [Record], to sink: any TextSink) {
        var text = ""
        for record in records { text += record.objectId + "\n" }
        sink.write(text)
    }

    private static func flush(_ bytes: inout [UInt8], to sink: any TextSink) {
        sink.write(String(decoding: bytes, as: UTF8.self))
        bytes.removeAll(keepingCapacity: true)
    }
}
