import QuarryCore
import Synchronization

/// What planning learns from the store that no literal changes, kept across plans until the
/// store changes (as a database keeps its parsed schema between prepares): how each key path
/// resolves to columns and what the statistics say about it, and the regular expressions
/// compiled. (What a leaf answers for an object whose key reaches nothing or null is worked
/// out anew each time, from the leaf's rule or by evaluating it: that costs less than hashing
/// the leaf's shape to look it up.)
final class PlanningMemo {
    private var version: UInt64
    private var accesses: [ClassKey: KeyAccess?] = [:]
    /// Locked apart from the rest: a leaf that reads its pattern from each execution takes the
    /// execution's compiled pattern from here while it runs (docs/ARCHITECTURE.md#plan-parameters),
    /// outside the plan cache's lock that guards the rest.
    private let regexes = Mutex<[RegexKey: Result<CompiledRegex, Diagnostic>]>([:])

    init(version: UInt64) { self.version = version }

    /// Forgets everything when the store has changed since.
    func sync(_ store: ColumnStore) {
        guard store.version != version else { return }
        version = store.version
        forget()
    }

    /// Empties the memo (its storage stays: the next plans fill it again).
    func forget() {
        accesses.removeAll(keepingCapacity: true)
        regexes.withLock { $0.removeAll(keepingCapacity: true) }
    }

    /// A `matches` leaf's compiled pattern (or its error): a plan checks a pattern's validity
    /// and then builds its node from it, and PCRE2 compilation with JIT is the costliest step
    /// of planning such a leaf, so it is done once.
    func regex(
        _ pattern: String, _ regexOptions: RegexOptions, _ options: StringOptions,
        _ limits: Limits
    ) throws(Diagnostic) -> CompiledRegex {
        let key = RegexKey(pattern: pattern, regexOptions: regexOptions, options: options)
        if let known = regexes.withLock({ $0[key] }) { return try known.get() }
        let compiled: Result<CompiledRegex, Diagnostic>
        do throws(Diagnostic) {
            compiled = .success(try StringMatcher.regex(pattern, regexOptions, options, limits))
        } catch { compiled = .failure(error) }
        regexes.withLock { regexes in
            if regexes.count >= 64 { regexes.removeAll(keepingCapacity: true) }
            regexes[key] = compiled
        }
        return try compiled.get()
    }

    private struct RegexKey: Hashable {
        let pattern: String
        let regexOptions: RegexOptions
        let options: StringOptions
    }

    func access(_ path: FieldPath, in table: ClassTable, store: ColumnStore) -> KeyAccess? {
        let key = ClassKey(className: table.name, path: path)
        if let known = accesses[key] { return known }
        let access = KeyAccess(path, in: table, store: store)
        accesses[key] = access
        return access
    }

    /// The key's facts come from its memoized access: one resolution of the key serves them
    /// all.
    func reachableTypes(_ path: FieldPath, _ facts: StoreKeyFacts) -> UInt16? {
        StoreKeyFacts.reachableTypes(access(path, in: facts.table, store: facts.store))
    }

    func isSingleValued(_ path: FieldPath, _ facts: StoreKeyFacts) -> Bool {
        StoreKeyFacts.isSingleValued(access(path, in: facts.table, store: facts.store))
    }

    private struct ClassKey: Hashable {
        let className: String
        let path: FieldPath
    }
}

/// The store's facts about keys, each asked once per store version.
struct MemoizedKeyFacts: KeyFacts {
    let facts: StoreKeyFacts
    let memo: PlanningMemo

    func reachableTypes(_ path: FieldPath) -> UInt16? { memo.reachableTypes(path, facts) }
    func isSingleValued(_ path: FieldPath) -> Bool { memo.isSingleValued(path, facts) }
}
