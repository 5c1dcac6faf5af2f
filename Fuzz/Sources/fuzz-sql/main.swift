import FuzzSupport

// The sql front-end: lexing, parsing, lowering and printing never trap; and the engine's text
// templates (docs/ARCHITECTURE.md#text-templates) give exactly what the full compile gives, for
// the input and for the input with its literal tokens swapped around, and a text prepared with
// its template's plan shape answers as its full compile does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard let text = FuzzInput.text(data, size) else { return 0 }
    guard FuzzInput.compile(text, .sql) != nil, let tokens = try? SQLWhere.tokens(text, limits: FuzzInput.limits)
    else { return 0 }
    // Twice: the second compile of a skeleton makes its template.
    for t in [text, text, FuzzTemplates.rotated(text, tokens)] {
        let compile = { () throws(Diagnostic) -> Query in
            try Dialect.sql.compile(
                t, className: "Contact",
                options: CompileOptions(schema: FuzzTemplates.engine.schema, limits: FuzzInput.limits))
        }
        let full = FuzzTemplates.outcome(compile)
        let templated = FuzzTemplates.outcome { () throws(Diagnostic) in
            try FuzzTemplates.engine.compile(t, on: "Contact")
        }
        if full != templated { fatalError("template disagrees on \(t):\n\(templated)\nfull compile:\n\(full)") }
        guard let query = try? compile() else { continue }
        let expected = FuzzTemplates.answer { () throws(Diagnostic) in try FuzzTemplates.engine.run(query) }
        let prepared = FuzzTemplates.answer { () throws(Diagnostic) in
            try FuzzTemplates.engine.prepare(t, on: "Contact").run()
        }
        if prepared != expected { fatalError("prepared text disagrees on \(t):\n\(prepared)\nits query:\n\(expected)") }
    }
    return 0
}

extension FuzzTemplates {
    /// The text with each literal token given the next one's text of the same kind (the last
    /// the first's), and one more digit on integers: the same skeleton, other values.
    static func rotated(_ text: String, _ tokens: [SQLToken]) -> String {
        func kind(_ t: SQLToken) -> Int? {
            switch t.kind {
            case .string: return 0
            case .integer: return 1
            case .decimal: return 2
            default: return nil
            }
        }
        let literals = tokens.filter { kind($0) != nil }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var copied = 0
        for (i, l) in literals.enumerated() {
            out += bytes[copied..<l.range.offset]
            let later = literals[(i + 1)...].first { kind($0) == kind(l) }
            let same = later ?? literals.first { kind($0) == kind(l) } ?? l
            out += bytes[same.range.offset..<same.range.end]
            if kind(l) == 1 { out.append(UInt8(ascii: "7")) }
            copied = l.range.end
        }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }
}

fuzz(fuzzOne)
