import QuarryCore

/// A quantifier body that tests only the element against constants: what Parse and SQL can say
/// about "some element" without quantifiers.
struct ElementTest {
    enum Kind {
        case isNull
        case compare(ComparisonOperator, Value, StringOptions)
        case between(Value, Value)
        case member([Value], StringOptions)
        case string(StringOperator, String, StringOptions)
    }

    var condition: Kind
    /// NSPredicate's NOT (`!=` is a negated `==`).
    var negated: Bool

    var negatedTest: ElementTest { ElementTest(condition: condition, negated: !negated) }

    init(condition: Kind, negated: Bool) {
        self.condition = condition
        self.negated = negated
    }

    init?(_ leaf: Leaf, variable v: String) {
        let element = Expr.variable(v)
        negated = leaf.negated
        switch leaf.condition {
        case .isNull(element):
            condition = .isNull
        case .compare(let a, let op, let b, let opts):
            guard let (s, o, y) = SemanticsConverter.oriented(a, op, b), s == element,
                case .value(let value) = y
            else { return nil }
            if o == .ne {
                condition = .compare(.eq, value, opts)
                negated.toggle()
            } else {
                condition = .compare(o, value, opts)
            }
        case .between(element, let lo, let hi):
            guard let lower = SemanticsConverter.constantValue(lo), let upper = SemanticsConverter.constantValue(hi)
            else { return nil }
            condition = .between(lower, upper)
        case .inCollection(element, let coll, let opts):
            guard let values = SemanticsConverter.listValues(coll) else { return nil }
            condition = .member(values, opts)
        case .string(element, let op, .literal(.string(let text)), let opts):
            condition = .string(op, text, opts)
        default:
            return nil
        }
    }
}

extension ElementTest {
    /// The test applied to `e` instead of the element.
    func condition(on e: Expr) -> Condition {
        switch condition {
        case .isNull: return .isNull(e)
        case .compare(let op, let y, let opts): return .compare(e, op, .literal(y), opts)
        case .between(let lo, let hi): return .between(e, lower: .literal(lo), upper: .literal(hi))
        case .member(let values, let opts): return .inCollection(e, .list(values.map(Expr.literal)), opts)
        case .string(let op, let text, let opts): return .string(e, op, .literal(.string(text)), opts)
        }
    }
}
