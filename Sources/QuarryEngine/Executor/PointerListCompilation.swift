import QuarryCore

extension FilterCompiler {
    /// Comparisons, IN lists, string tests and BETWEEN on a list of pointers. Its elements are
    /// pointers, never null: only equality with a pointer (or, for Parse, a plain objectId) can
    /// hold, ordered and string tests never do. NSPredicate compares the list as
    /// one value.
    func pointerListLeaf(_ l: Leaf, _ access: KeyAccess, _ lists: PointerListColumn, _ answers: SlotAnswers)
        -> FilterNode?
    {
        let neg = l.negated
        func constant(_ v: Bool) -> FilterNode {
            SlotLeaf(l, access: access, whenValue: v, answers: answers, selectivity: v ? 0.9 : 0.01)
        }
        func members(_ literals: [Value], flip: Bool = false, invertResult: Bool = false) -> FilterNode {
            let rows = literals.compactMap { row(of: $0, in: lists.targetClass, semantics: l.semantics) }
            let set = RowSet(rows: rows, capacity: store.table(lists.targetClass)?.rowCount ?? 0)
            return PointerListLeaf(
                l, access: access, lists: lists, test: .members(set, flip: flip),
                invertResult: invertResult, answers: answers)
        }
        switch (l.semantics, l.condition) {
        case (.predicate, .compare(_, let op, .literal(let c), _)) where c.isScalarLiteral || c.isNull:
            // The list is a value: never equal to a scalar or nil, never ordered.
            return constant(op == .eq ? neg : (op == .ne ? !neg : neg))
        case (.predicate, .inCollection(_, .list(let items), _)) where Self.scalarsOrNulls(items):
            return constant(neg)
        case (_, .string(_, _, .literal(.string), _)), (_, .text), (_, .between(_, .literal, .literal)):
            // Pointers are not strings and do not order: unknown for each element.
            return constant(Self.unknown(l))
        case (.sql, .compare(_, _, .literal(.null), _)):
            return constant(false)
        case (_, .compare(_, let op, .literal(let c), _)) where c.isScalarLiteral || c.isNull:
            switch op {
            case .eq: return members([c])
            case .ne where l.semantics == .sql: return members([c], flip: true)
            case .ne: return members([c], invertResult: true)
            case .lt, .le, .gt, .ge: return constant(Self.unknown(l))
            }
        case (.sql, .inCollection(_, .list(let items), _)) where Self.scalarsOrNulls(items):
            return members(items.compactMap(\.literalValue).filter { !$0.isNull })
        case (.document, .inCollection(_, .list(let items), _)) where Self.scalarsOrNulls(items):
            return members(items.compactMap(\.literalValue))
        default:
            return nil
        }
    }

    /// A list written as scalar literals and nulls (an array literal could equal the list).
    private static func scalarsOrNulls(_ items: [Expr]) -> Bool {
        items.allSatisfy { $0.literalValue.map { $0.isScalarLiteral || $0.isNull } ?? false }
    }

    /// The row of the object a literal names in a class: a pointer into it, or under `.document`
    /// a plain objectId.
    private func row(of v: Value, in className: String, semantics: LeafSemantics) -> Int? {
        let table = store.table(className)
        switch v {
        case .pointer(let p) where p.className == className: return table?.row(of: p.objectId)
        case .string(let id) where semantics == .document: return table?.row(of: id)
        default: return nil
        }
    }
}

extension Expr {
    var literalValue: Value? { if case .literal(let v) = self { return v } else { return nil } }
}
