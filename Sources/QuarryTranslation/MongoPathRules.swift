import QuarryCore

// The `.document` rules that come from MongoDB and have no counterpart in the other semantics.

extension SemanticsConverter {
    /// Rules that hold under `.document` only (docs/SEMANTICS.md), so that a leaf they touch
    /// does not cross between `.document` and the other semantics: on a dotted path through an
    /// array, MongoDB counts an element object without the field as null and a mapping that
    /// reaches nothing as absent.
    func checkMongoPathRules(_ l: Leaf, _ scope: Scope) throws(Diagnostic) {
        guard (l.semantics == .document) != (target == .document) else { return }
        let path: FieldPath
        switch l.condition {
        case .compare(.key(let k), _, .literal(.null), _), .compare(.literal(.null), _, .key(let k), _),
            .isNull(.key(let k)):
            path = k
        case .inCollection(.key(let k), let list, _) where (Self.listValues(list) ?? []).contains(.null):
            path = k
        default:
            return
        }
        for n in 1..<max(1, path.components.count)
        where domain(.key(FieldPath(Array(path.components[..<n]))), scope).multiValued {
            throw inexpressible(
                l,
                "the path crosses an array, where Parse counts an element without the field as null "
                    + "and a path that reaches no element as absent", schemaHelps: true)
        }
    }
}
