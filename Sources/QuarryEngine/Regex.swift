import CPCRE2
import QuarryCore

/// A regular expression compiled once by PCRE2 (UTF-8, Unicode properties, JIT when the
/// library has it), matched under the match and depth budgets of `Limits`.
///
/// With a `QueryBudget`, a match first runs under a small step limit and, when that runs out,
/// again under limits eight times larger up to `regexMatchLimit`; each limit exhausted is
/// charged to the query's total regex budget. The charge is a lower bound of the work done
/// (within a factor of eight), deterministic, and cheap matches are never charged.
///
/// Matching is safe from several threads at once: the compiled pattern and the match context
/// are only read after `init`, and every call gets its own match data.
public final class CompiledRegex: @unchecked Sendable {
    /// The pattern as written.
    public let pattern: String
    public let options: RegexOptions
    private let code: OpaquePointer
    /// Match contexts with growing match limits, the last one `regexMatchLimit`.
    private let steps: [(limit: UInt32, context: OpaquePointer)]
    private var matchContext: OpaquePointer { steps[steps.count - 1].context }

    /// The first match limit of the ladder, and the growth from one limit to the next.
    private static let firstStep: UInt32 = 10_000
    private static let stepGrowth: UInt32 = 8

    /// Compiles `pattern`. `options.wholeString` anchors the match at both ends (NSPredicate
    /// MATCHES); otherwise the pattern is searched for anywhere (Parse `$regex`).
    ///
    /// Throws `regex.invalid` with PCRE2's message and the byte offset of the problem.
    public init(_ pattern: String, options: RegexOptions, limits: Limits = .default) throws(Diagnostic) {
        self.pattern = pattern
        self.options = options
        var flags: UInt32 = PCRE2_UTF | PCRE2_UCP | PCRE2_NEVER_BACKSLASH_C
        if options.flags.contains(.caseInsensitive) { flags |= PCRE2_CASELESS }
        if options.flags.contains(.multiline) { flags |= PCRE2_MULTILINE }
        if options.flags.contains(.extended) { flags |= PCRE2_EXTENDED }
        if options.flags.contains(.dotAll) { flags |= PCRE2_DOTALL }
        if options.wholeString { flags |= PCRE2_ANCHORED | PCRE2_ENDANCHORED }

        var errorCode: Int32 = 0
        var errorOffset: Int = 0
        let compiled = Self.withBytes(of: pattern) { bytes, count in
            pcre2_compile_8(bytes, count, flags, &errorCode, &errorOffset, nil)
        }
        guard let compiled else {
            throw Diagnostic(
                .regex.invalid,
                "\(Self.message(for: errorCode)) at pattern offset \(errorOffset)")
        }
        var steps: [(limit: UInt32, context: OpaquePointer)] = []
        for limit in Self.ladder(upTo: limits.regexMatchLimit) {
            guard let context = pcre2_match_context_create_8(nil) else {
                for step in steps { pcre2_match_context_free_8(step.context) }
                pcre2_code_free_8(compiled)
                throw Diagnostic(.regex.invalid, "could not allocate a PCRE2 match context")
            }
            pcre2_set_match_limit_8(context, limit)
            pcre2_set_depth_limit_8(context, limits.regexDepthLimit)
            steps.append((limit, context))
        }
        // JIT is an optimisation only: without it (or on failure) the interpreter runs the
        // same pattern with the same results.
        if limits.regexJIT { _ = pcre2_jit_compile_8(compiled, PCRE2_JIT_COMPLETE) }
        self.code = compiled
        self.steps = steps
    }

    deinit {
        for step in steps { pcre2_match_context_free_8(step.context) }
        pcre2_code_free_8(code)
    }

    /// `firstStep`, growing by `stepGrowth`, ending at `limit` (which it never exceeds).
    private static func ladder(upTo limit: UInt32) -> [UInt32] {
        var limits: [UInt32] = []
        var step = firstStep
        while step < limit {
            limits.append(step)
            step = step.multipliedSaturated(by: stepGrowth)
        }
        limits.append(limit)
        return limits
    }

    /// Runs `match` under the ladder of limits (only the last without a budget), charging the
    /// budget each limit the match exhausts.
    private func run(_ budget: QueryBudget?, _ match: (OpaquePointer) -> Int32) throws(Diagnostic) -> Bool {
        guard let budget else { return try outcome(match(matchContext)) }
        var charged: UInt32 = 0
        for (i, step) in steps.enumerated() {
            let rc = match(step.context)
            guard rc == PCRE2_ERROR_MATCHLIMIT, i + 1 < steps.count else { return try outcome(rc) }
            try budget.chargeRegex(UInt64(step.limit - charged), pattern: pattern)
            charged = step.limit
        }
        return try outcome(PCRE2_ERROR_MATCHLIMIT)
    }

    /// Whether the pattern matches `subject` (anywhere, or the whole of it when anchored).
    ///
    /// Throws `limit.regex` when the match or depth budget (or the query's total regex
    /// budget) runs out: a pattern that backtracks catastrophically is an error, never a
    /// silent "no match".
    public func matches(_ subject: String) throws(Diagnostic) -> Bool {
        try matches(subject, budget: nil)
    }

    func matches(_ subject: String, budget: QueryBudget?) throws(Diagnostic) -> Bool {
        guard let data = pcre2_match_data_create_8(1, nil) else {
            throw Diagnostic(.regex.matchFailed, "could not allocate PCRE2 match data")
        }
        defer { pcre2_match_data_free_8(data) }
        return try Self.withBytes(of: subject) { (bytes, count) throws(Diagnostic) in
            try run(budget) { context in
                // Swift strings are always valid UTF-8, so PCRE2's own check would be redundant.
                pcre2_match_8(code, bytes, count, 0, PCRE2_NO_UTF_CHECK, data, context)
            }
        }
    }

    /// Match data for `matches(_:_:)`, reused from one subject to the next by one scan (never
    /// shared between threads).
    public func makeMatchData() throws(Diagnostic) -> RegexMatchData {
        guard let data = pcre2_match_data_create_8(1, nil) else {
            throw Diagnostic(.regex.matchFailed, "could not allocate PCRE2 match data")
        }
        return RegexMatchData(data)
    }

    /// `matches` on UTF-8 bytes already known to be valid (a stored string's), without making a
    /// String: the same budgets and errors.
    func matches(_ subject: UnsafeBufferPointer<UInt8>, _ data: RegexMatchData, budget: QueryBudget?) throws(Diagnostic)
        -> Bool
    {
        if let base = subject.baseAddress {
            return try run(budget) { pcre2_match_8(code, base, subject.count, 0, PCRE2_NO_UTF_CHECK, data.pointer, $0) }
        }
        // PCRE2 refuses a null subject even when it is empty.
        var empty: UInt8 = 0
        return try run(budget) { pcre2_match_8(code, &empty, 0, 0, PCRE2_NO_UTF_CHECK, data.pointer, $0) }
    }

    /// Whether the pattern matches `subject`, when the first limit of the ladder decides it;
    /// nil when the match needs more (which a budget would be charged for) or fails. A row
    /// this decides charges no budget and throws nothing, so a database may decide it on its
    /// own (docs/STORAGE.md#regular-expressions). The subject is UTF-8 from outside Swift (a
    /// database's text), which PCRE2 checks: bytes that are not valid UTF-8 are undecided too,
    /// left for Quarry to judge on the string it reads. `data` is reused by one caller.
    public func matchesWithoutCharge(utf8 subject: UnsafeBufferPointer<UInt8>, _ data: RegexMatchData) -> Bool? {
        var empty: UInt8 = 0
        let rc =
            if let base = subject.baseAddress {
                pcre2_match_8(code, base, subject.count, 0, 0, data.pointer, steps[0].context)
            } else {
                // PCRE2 refuses a null subject even when it is empty.
                pcre2_match_8(code, &empty, 0, 0, 0, data.pointer, steps[0].context)
            }
        if rc >= 0 { return true }
        return rc == PCRE2_ERROR_NOMATCH ? false : nil
    }

    /// A match's return code as a result: budgets exceeded are `limit.regex`.
    private func outcome(_ rc: Int32) throws(Diagnostic) -> Bool {
        if rc >= 0 { return true }
        switch rc {
        case PCRE2_ERROR_NOMATCH:
            return false
        case PCRE2_ERROR_MATCHLIMIT, PCRE2_ERROR_DEPTHLIMIT, PCRE2_ERROR_HEAPLIMIT,
            PCRE2_ERROR_JIT_STACKLIMIT:
            throw Diagnostic(
                .limit.regex,
                "the regular expression /\(pattern)/ exceeded its matching budget "
                    + "(\(Self.message(for: rc))); simplify the pattern or raise the regex limits")
        default:
            throw Diagnostic(.regex.matchFailed, "matching /\(pattern)/ failed: \(Self.message(for: rc))")
        }
    }

    /// The string's UTF-8 bytes and their count. `withCString` always yields a pointer (PCRE2
    /// 10.42 refuses a null subject even when it is empty); the count keeps interior NULs.
    private static func withBytes<R, E: Error>(of s: String, _ body: (UnsafePointer<UInt8>, Int) throws(E) -> R)
        throws(E) -> R
    {
        let count = s.utf8.count
        let result: Result<R, E> = s.withCString { chars in
            chars.withMemoryRebound(to: UInt8.self, capacity: count + 1) { p in
                do throws(E) { return .success(try body(p, count)) } catch { return .failure(error) }
            }
        }
        return try result.get()
    }

    private static func message(for code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = pcre2_get_error_message_8(code, &buffer, buffer.count)
        guard n > 0 else { return "PCRE2 error \(code)" }
        return String(decoding: buffer[0..<Int(n)], as: UTF8.self)
    }
}

/// PCRE2 match data owned by one scan (see `CompiledRegex.makeMatchData`).
public final class RegexMatchData {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { pcre2_match_data_free_8(pointer) }
}
