import QuarryCore
import QuarryData

/// How sparse a class may be in the in-memory store (docs/STORAGE.md#sparse-fields). Every
/// column has a slot for every object of its class, so a class of F fields over N objects
/// costs F × N cells whatever its objects hold: a file of 30,000 objects each with a field of
/// its own needs 900 million. A class may pass `Limits.maxSparseCells` cells only while it
/// has no more than `cellsPerValue` for each value its objects hold; past that, loading a
/// data file fails and a write that adds fields is refused, with `limit.sparse-class`.
enum SparseLimit {
    static let cellsPerValue = 64

    static func exceeded(fields: Int, objects: Int, values: Int, limit: Int) -> Bool {
        let (cells, overflow) = fields.multipliedReportingOverflow(by: objects)
        return overflow || (cells > limit && cells / cellsPerValue > values)
    }

    static func message(fields: Int, objects: Int, values: Int, limit: Int) -> String {
        let (cells, overflow) = fields.multipliedReportingOverflow(by: objects)
        return "the class would have \(fields) fields over \(objects) objects, "
            + (overflow ? "more cells than can be counted" : "\(cells) cells")
            + " (the in-memory store keeps one for every field of every object) for \(values) values: "
            + "more than the limit of \(limit) cells and more than \(cellsPerValue) per value; "
            + "data this sparse belongs in a SQLite or PostgreSQL store"
    }

    /// The first object of a data file's records that takes its class past the limit, as the
    /// direct loader would meet it, with the error it reports.
    static func firstExcess(in database: Database, file: String, limit: Int) -> DataFileError? {
        for name in database.classNames {
            guard let records = database[name]?.records else { continue }
            var fields = Set<String>(), values = 0
            for (i, record) in records.enumerated() {
                fields.formUnion(record.fieldOrder)
                values += record.fieldOrder.count
                if exceeded(fields: fields.count, objects: i + 1, values: values, limit: limit) {
                    return error(
                        name, fields: fields.count, objects: i + 1, values: values, limit: limit,
                        objectId: record.objectId, file: file)
                }
            }
        }
        return nil
    }

    /// Refuses a batch of writes that adds fields to a class past the limit. Only a batch that
    /// adds fields is checked (it costs a pass over the class's columns); its replaced objects
    /// count as added ones, and their values as more.
    static func check(_ changes: [StoreChange], against store: ColumnStore, limit: Int) throws(Diagnostic) {
        var saved: [String: [Record]] = [:]
        for case .save(let record, let className) in changes { saved[className, default: []].append(record) }
        for (className, records) in saved {
            let table = store.table(className)
            var added = Set<String>()
            for record in records {
                for field in record.fieldOrder where table?.column(field) == nil { added.insert(field) }
            }
            guard !added.isEmpty else { continue }
            let fields = (table?.columns.count ?? 0) + added.count
            let objects = (table?.liveCount ?? 0) + records.count
            let values =
                (table?.columns.values.reduce(0) { $0 + $1.presentCount } ?? 0)
                + records.reduce(0) { $0 + $1.fieldOrder.count }
            guard exceeded(fields: fields, objects: objects, values: values, limit: limit) else { continue }
            throw Diagnostic(
                .limit.sparseClass,
                "class '\(className)': " + message(fields: fields, objects: objects, values: values, limit: limit),
                parseCode: ParseCode.objectTooLarge)
        }
    }

    static func error(
        _ className: String, fields: Int, objects: Int, values: Int, limit: Int, objectId: String, file: String
    ) -> DataFileError {
        DataFileError(
            code: .limit.sparseClass, message: message(fields: fields, objects: objects, values: values, limit: limit),
            file: file, className: className, objectIndex: objects, objectId: objectId)
    }
}
