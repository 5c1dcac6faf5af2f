import QuarryCore

/// Objects of class `P` for the stores' regular-expression tests: `o<i>`, with `n` its index,
/// the tags `t<i>` and `x` (the array form) and the name given (nil: no name field).
public enum RegexSubjects {
    public static func database(names: [Value?]) -> Database {
        var db = Database()
        for (i, name) in names.enumerated() {
            var fields: [(String, Value)] = [
                ("n", .int(Int64(i))), ("tags", .array([.string("t\(i)"), .string("x")])),
            ]
            if let name { fields.append(("name", name)) }
            db.insert(Record(objectId: "o\(i)", fields: fields), into: "P")
        }
        return db
    }
}
