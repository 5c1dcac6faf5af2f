import QuarryCore

/// A backend's objects as one consistent snapshot (one read transaction), read by the
/// reference machinery when it finishes a pushed-down query: pointers and includes resolve
/// here, and inner queries left residual scan a class here.
public protocol StoredObjects: AnyObject {
    func hasClass(_ className: String) -> Bool
    /// The object a pointer leads to; nil when there is no such object.
    func object(_ p: Pointer) throws(Diagnostic) -> Record?
    /// Every object of a class in insertion order (empty when there is no such class).
    func objects(in className: String) throws(Diagnostic) -> [Record]
}

/// `StoredObjects` as the reference machinery's `RecordSource`. The machinery's reads cannot
/// throw, so a storage failure is kept, the object reads as absent, and `PushdownEvaluator`
/// reports the failure instead of the answer.
final class StoredObjectsSource: RecordSource {
    let objects: any StoredObjects
    private var classes: [String: [Record]] = [:]
    private(set) var failure: Diagnostic?

    init(_ objects: any StoredObjects) { self.objects = objects }

    func hasClass(_ className: String) -> Bool { objects.hasClass(className) }

    func resolve(_ p: Pointer) -> Record? {
        do {
            return try objects.object(p)
        } catch {
            failure = failure ?? error
            return nil
        }
    }

    func field(_ name: String, of p: Pointer) -> Value? { resolve(p)?[name] }
    func contains(_ p: Pointer) -> Bool { resolve(p) != nil }
    func objectCount(in className: String) -> Int { all(className).count }
    func record(at position: Int, in className: String) -> Record? { all(className)[position] }

    private func all(_ className: String) -> [Record] {
        if let records = classes[className] { return records }
        var records: [Record] = []
        do {
            records = try objects.objects(in: className)
        } catch {
            failure = failure ?? error
        }
        classes[className] = records
        return records
    }
}
