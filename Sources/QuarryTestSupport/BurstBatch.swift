import Quarry

/// The objects batch `n` of the durability test's write burst saves, in one transaction:
/// three objects with a few kilobytes each, so that a kill can land in the middle of one.
public enum BurstBatch {
    public static let size = 3

    public static func records(_ n: Int) -> [Record] {
        (0..<size).map { k in
            Record(
                objectId: "b\(n)-\(k)",
                fields: [
                    ("batch", .int(Int64(n))), ("k", .int(Int64(k))),
                    ("text", .string(String(repeating: "\(n)-\(k);", count: 600))),
                    ("tags", .array([.string("t\(n % 7)"), .int(Int64(k))])),
                ])
        }
    }
}
