import QuarryCore

// The syntax tree: what was written, each node with the bytes it covers. It carries no
// meaning yet; `Lowering` binds arguments and variables, checks types it can see, and builds IR.

struct PredicateNode {
    var kind: PredicateSyntax
    var range: SourceRange
}

indirect enum PredicateSyntax {
    case constant(Bool)
    case and([PredicateNode])
    case or([PredicateNode])
    case not(PredicateNode)
    case comparison(ComparisonSyntax)
}

struct ComparisonSyntax {
    var qualifier: QualifierSyntax?
    var qualifierRange: SourceRange?
    var lhs: ExprNode
    var op: ComparisonOp
    var opRange: SourceRange
    var options: StringOptions
    /// The `[cd]` brackets, when written.
    var optionsRange: SourceRange?
    var rhs: ExprNode
}

enum QualifierSyntax: String {
    case any = "ANY", some = "SOME", all = "ALL", none = "NONE"
}

enum ComparisonOp: String {
    case eq = "==", ne = "!=", lt = "<", le = "<=", gt = ">", ge = ">="
    case between = "BETWEEN", in_ = "IN", contains = "CONTAINS"
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", like = "LIKE", matches = "MATCHES"

    var comparison: ComparisonOperator? {
        switch self {
        case .eq: return .eq
        case .ne: return .ne
        case .lt: return .lt
        case .le: return .le
        case .gt: return .gt
        case .ge: return .ge
        default: return nil
        }
    }
}

struct ExprNode {
    var kind: ExprSyntax
    var range: SourceRange
}

indirect enum ExprSyntax {
    case integer(UInt64)
    case real(Double)
    case string(String)
    case bool(Bool)
    case null
    case selfRef
    case identifier(String)
    case variable(String)
    /// `%@`, `%K`, `%d`…; `index` is its position among the format's arguments.
    case argument(ArgumentSpec, index: Int)
    /// `%%`
    case percent
    case list([ExprNode])
    case parenthesized(ExprNode)
    /// `base.name.name…`: one node for the whole run of names, so that a long key path is no
    /// deep tree (lowering and freeing a tree recurse on its depth).
    case member(ExprNode, [Name])
    /// `base.%K`: the key path argument at `index` (written at `range`) continues the path.
    case memberArgument(ExprNode, ArgumentSpec, index: Int, range: SourceRange)
    /// `base.@op.rest…`, or `@op.rest…` at the start of a path (`base` nil).
    case collectionOperator(ExprNode?, Name, rest: [Name])
    case index(ExprNode, IndexSyntax)
    /// `name(args)`
    case call(Name, [ExprNode])
    /// `FUNCTION(receiver, 'selector:', args…)`
    case function(receiver: ExprNode, selector: ExprNode, [ExprNode])
    case subquery(ExprNode, variable: Name, PredicateNode)
    /// `CAST(value, type)`; the arguments as written, checked when lowering.
    case cast([ExprNode])
    case binary(BinaryOp, ExprNode, ExprNode)
    case negate(ExprNode)
    /// `$name := value`
    case assignment(Name, ExprNode)
}

/// An identifier with where it was written.
struct Name {
    var text: String
    var range: SourceRange
}

enum IndexSyntax {
    case first, last, size
    case expr(ExprNode)
}

enum BinaryOp: String {
    case add = "+", subtract = "-", multiply = "*", divide = "/", power = "**"

    var arithmetic: ArithmeticOperator {
        switch self {
        case .add: return .add
        case .subtract: return .subtract
        case .multiply: return .multiply
        case .divide: return .divide
        case .power: return .power
        }
    }
}

extension SourceRange {
    /// The smallest range covering both.
    func union(_ other: SourceRange) -> SourceRange {
        let lo = Swift.min(offset, other.offset)
        return SourceRange(offset: lo, length: Swift.max(end, other.end) - lo)
    }
}
