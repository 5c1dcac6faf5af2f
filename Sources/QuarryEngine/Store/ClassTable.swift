import QuarryCore

/// The columns of one class. Row `i` is the `i`-th record of the class in the database, so
/// rows are in insertion order.
final class ClassTable {
    let name: String
    /// Every row's objectId, as a string column (the `objectId` key).
    let objectIds = StringColumn(kind: .string)
    private(set) var columns: [String: Column] = [:]

    init(name: String) { self.name = name }

    var rowCount: Int { objectIds.rowCount }

    /// The column of a field, or the objectId column; nil for a field no object has had.
    func column(_ field: String) -> Column? {
        field == "objectId" ? objectIds : columns[field]
    }

    func setColumn(_ column: Column, for field: String) { columns[field] = column }
}
