import FuzzSupport

// The whole path: the first byte picks the dialect, the rest is the query, compiled against
// the fuzzing database and run by the engine and the reference evaluator, which must agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard size > 0, let text = FuzzInput.text(data + 1, size - 1) else { return 0 }
    let dialect = Dialect.allCases[Int(data[0]) % Dialect.allCases.count]
    guard let query = FuzzInput.compile(text, dialect) else { return 0 }
    let engine = Engine(
        database: FuzzInput.database, limits: FuzzInput.limits, now: { 1_700_000_000_000 }, random: { 0.5 })
    let reference = ReferenceEvaluator(
        database: FuzzInput.database, limits: FuzzInput.limits, now: { 1_700_000_000_000 },
        random: { 0.5 })
    let fromEngine = Result { () throws(Diagnostic) in try engine.run(query) }
    let fromReference = Result { () throws(Diagnostic) in try reference.run(query) }
    if case .success(let a) = fromEngine, case .success(let b) = fromReference, a != b {
        fatalError("engine and reference disagree on \(dialect) query: \(text)")
    }
    _ = try? engine.explain(query, analyze: true)
    return 0
}

fuzz(fuzzOne)
