import QuarryCore

/// The fields of the evaluated object a predicate reads: the first step of each key path it
/// holds (quantifiers and SUBQUERY included: their keys start at the object too), plus the
/// objectId. The reference fallback builds a record with only these from the columns. Nil
/// when the predicate reads the whole object (SELF).
enum FieldsRead {
    static func of(_ p: Filter) -> Set<String>? {
        var fields: Set<String> = []
        var wholeObject = false
        IRNode.filter(p).forEach(innerQueries: false) { node, _ in
            switch node {
            case .expr(.evaluatedObject): wholeObject = true
            case .expr(.key(let path)): fields.insert(path.first)
            case .condition(.geo(let g)): fields.insert(g.key.first)
            case .condition(.inQuery(let key, _)), .condition(.select(let key, _, _)), .condition(.text(let key, _)):
                fields.insert(key.first)
            default: break
            }
            return !wholeObject
        }
        return wholeObject ? nil : fields
    }
}
