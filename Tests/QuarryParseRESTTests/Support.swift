import Testing
@testable import QuarryParseREST
import QuarryCore

// Shorthands for writing golden IR in the tests.

func doc(_ c: Condition, negated: Bool = false) -> Filter { .leaf(c, negated: negated, .document) }
func key(_ s: String) -> Expr { .key(FieldPath(s)) }
func lit(_ v: Value) -> Expr { .literal(v) }
func list(_ vs: [Value]) -> Expr { .list(vs.map(Expr.literal)) }
func eq(_ k: String, _ v: Value) -> Filter { doc(.compare(key(k), .eq, lit(v), [])) }
func cmp(_ k: String, _ op: ComparisonOperator, _ v: Value) -> Filter { doc(.compare(key(k), op, lit(v), [])) }
func geo(_ lat: Double, _ lon: Double) -> GeoPoint { GeoPoint(latitude: lat, longitude: lon) }
func ptr(_ c: String, _ id: String) -> Pointer { Pointer(className: c, objectId: id) }

/// The diagnostics a throwing call reports, or [] when it succeeds.
func diagnostics<T>(_ body: () throws(Diagnostics) -> T) -> [Diagnostic] {
    do {
        _ = try body()
        return []
    } catch {
        return error.all
    }
}
