import Quarry

/// Writes `run`'s (and the shell's) answer in the chosen form.
enum ResultPrinter {
    /// The records in `format`; `fieldOrder` orders the columns of the tabular formats.
    static func print(
        _ records: [Record], as format: OutputFormat, fieldOrder: [String], style: Style, to sink: any TextSink
    ) {
        switch format {
        case .ndjson: ndjson(records, to: sink)
        case .json: json(records, to: sink)
        case .table, .box, .csv, .markdown:
            let columns = columns(of: records, fieldOrder: fieldOrder)
            switch format {
            case .csv: sink.write(CSVText.render(columns: columns, records: records))
            case .markdown: sink.write(MarkdownTable.render(columns: columns, records: records))
            default:
                let table = TextTable(columns: columns, rows: records.map { r in columns.map { CellText.cell(r[$0]) } })
                sink.write(format == .box ? table.renderBox(style: style) : table.render(style: style))
            }
        }
    }

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

    /// The columns of a tabular format: objectId, then the fields the results have, in the
    /// class's field order (`fieldOrder`), then any others in the order first met.
    static func columns(of records: [Record], fieldOrder: [String]) -> [String] {
        var present: Set<String> = []
        for record in records { present.formUnion(record.fields.keys) }
        var columns = ["objectId"]
        var seen: Set<String> = ["objectId"]
        for name in fieldOrder where present.contains(name) && seen.insert(name).inserted { columns.append(name) }
        for record in records {
            for name in record.fieldOrder where seen.insert(name).inserted { columns.append(name) }
        }
        return columns
    }

    static func ids(_ records: [Record], to sink: any TextSink) {
        var text = ""
        for record in records { text += record.objectId + "\n" }
        sink.write(text)
    }

    /// `--ids --json`: `{"ids":[…]}`.
    static func jsonIds(_ records: [Record], to sink: any TextSink) {
        sink.write("{\"ids\":[" + records.map { JSONText.quote($0.objectId) }.joined(separator: ",") + "]}\n")
    }

    private static func flush(_ bytes: inout [UInt8], to sink: any TextSink) {
        sink.write(String(decoding: bytes, as: UTF8.self))
        bytes.removeAll(keepingCapacity: true)
    }
}
