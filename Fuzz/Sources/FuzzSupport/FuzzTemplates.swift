/// What the harnesses that check the engine's text templates share (docs/ARCHITECTURE.md#text-templates):
/// an engine over the fuzz database, and a compile's and a run's outcome as text to compare.
public enum FuzzTemplates {
    public static let engine = Engine(database: FuzzInput.database, limits: FuzzInput.limits)

    /// Everything in a compile's outcome: the query with its leaves' ranges and each literal's
    /// kind (the reflection shows them all), or the error's code, range and message.
    public static func outcome(_ compile: () throws(Diagnostic) -> Query) -> String {
        do throws(Diagnostic) {
            return String(reflecting: try compile())
        } catch {
            return "\(error.code) \(String(describing: error.range)) \(error.message)"
        }
    }

    /// A run's records, each with its fields in key order, or the error's code, range and message.
    public static func answer(_ run: () throws(Diagnostic) -> QueryResult) -> String {
        do throws(Diagnostic) {
            switch try run() {
            case .count(let n): return "count \(n)"
            case .records(let records):
                return records.map { r in
                    r.objectId + " "
                        + r.fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                        .joined(separator: " ")
                }.joined(separator: "\n")
            }
        } catch {
            return "\(error.code) \(String(describing: error.range)) \(error.message)"
        }
    }
}
