import FuzzSupport

// The json front-end: lexing, parsing, lowering and printing never trap; and the engine's text
// templates (docs/ARCHITECTURE.md#text-templates) give exactly what the full compile gives, for
// the input and for the input with its value tokens swapped around, and a text prepared with
// its template's plan shape answers as its full compile does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard let text = FuzzInput.text(data, size) else { return 0 }
    guard FuzzInput.compile(text, .json) != nil, let root = try? JSONParser().parseLocated(text) else { return 0 }
    // Twice: the second compile of a skeleton makes its template.
    for t in [text, text, FuzzTemplates.rotated(text, root)] {
        let compile = { () throws(Diagnostic) -> Query in
            try Dialect.json.compile(
                t, className: "Contact",
                options: CompileOptions(schema: FuzzTemplates.engine.schema, limits: FuzzInput.limits))
        }
        let full = FuzzTemplates.outcome(compile)
        let templated = FuzzTemplates.outcome { () throws(Diagnostic) in
            try FuzzTemplates.engine.compile(t, on: "Contact", dialect: .json)
        }
        if full != templated { fatalError("template disagrees on \(t):\n\(templated)\nfull compile:\n\(full)") }
        guard let query = try? compile() else { continue }
        let expected = FuzzTemplates.answer { () throws(Diagnostic) in try FuzzTemplates.engine.run(query) }
        let prepared = FuzzTemplates.answer { () throws(Diagnostic) in
            try FuzzTemplates.engine.prepare(t, on: "Contact", dialect: .json).run()
        }
        if prepared != expected { fatalError("prepared text disagrees on \(t):\n\(prepared)\nits query:\n\(expected)") }
    }
    return 0
}

extension FuzzTemplates {
    /// The text with each string, integer and decimal value given the next one's text of the
    /// same kind (the last the first's), and one more digit on integers: the same skeleton,
    /// other values.
    static func rotated(_ text: String, _ root: JSONNode) -> String {
        var values: [(kind: Int, range: SourceRange)] = []
        func collect(_ node: JSONNode) {
            switch node.kind {
            case .string: values.append((0, node.range))
            case .int: values.append((1, node.range))
            case .double: values.append((2, node.range))
            case .array(let items): items.forEach(collect)
            case .object(let members): members.forEach { collect($0.value) }
            default: break
            }
        }
        collect(root)
        values.sort { $0.range.offset < $1.range.offset }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var copied = 0
        for (i, v) in values.enumerated() {
            out += bytes[copied..<v.range.offset]
            let later = values[(i + 1)...].first { $0.kind == v.kind }
            let same = later ?? values.first { $0.kind == v.kind } ?? v
            out += bytes[same.range.offset..<same.range.end]
            if v.kind == 1 { out.append(UInt8(ascii: "7")) }
            copied = v.range.end
        }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }
}

fuzz(fuzzOne)
