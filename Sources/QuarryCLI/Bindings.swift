import Quarry

extension BindingOptions {
    /// `--arg` values in order, as NSPredicate arguments.
    func predicateArguments() throws(Failure) -> [PredicateArgument] {
        var values: [PredicateArgument] = []
        for (i, text) in arguments.enumerated() {
            values.append(.value(try Self.value(text, what: "--arg \(i + 1)")))
        }
        return values
    }

    /// `--var NAME=JSON` values by name; nil when none was given, so unbound variables stay
    /// in the IR (and the engine names any it meets).
    func predicateVariables() throws(Failure) -> [String: Value]? {
        guard !variables.isEmpty else { return nil }
        var bound: [String: Value] = [:]
        for text in variables {
            guard let eq = text.firstIndex(of: "=") else {
                throw .usage("--var '\(text)' needs the form NAME=JSON, e.g. --var 'minAge=21'")
            }
            var name = Substring(text[..<eq])
            if name.hasPrefix("$") { name = name.dropFirst() }
            guard Self.isVariableName(name) else {
                throw .usage(
                    "--var '\(text)': '\(name)' is not a variable name (letters, digits and '_', not starting with a digit)"
                )
            }
            guard bound[String(name)] == nil else { throw .usage("--var binds $\(name) twice") }
            bound[String(name)] = try Self.value(String(text[text.index(after: eq)...]), what: "--var \(name)")
        }
        return bound
    }

    /// Only NSPredicate has placeholders and variables; accepting them elsewhere would ignore them.
    func requireDialect(_ dialect: Dialect) throws(Failure) {
        guard dialect != .predicate else { return }
        let given = [arguments.isEmpty ? nil : "--arg", variables.isEmpty ? nil : "--var"].compactMap { $0 }
        guard given.isEmpty else {
            throw .usage(
                "\(given.joined(separator: " and ")) only \(given.count == 1 ? "applies" : "apply") to --dialect predicate (NSPredicate placeholders and $variables); the dialect here is \(dialect)"
            )
        }
    }

    private static func value(_ text: String, what: String) throws(Failure) -> Value {
        let json: JSON
        do throws(Diagnostic) {
            json = try JSONParser().parse(text)
        } catch {
            let quoted = "'" + JSONText.quote(text) + "'"
            let hint =
                text.first.map { "\"[{-0123456789tfn".contains($0) } == true
                ? "" : " (a string needs JSON quotes: \(quoted))"
            throw .usage("\(what) is not JSON: \(error.message)\(hint)")
        }
        do throws(ValueDecodingError) {
            return try ParseJSON.decode(json)
        } catch {
            throw .usage("\(what): \(error.path.isEmpty ? "" : "\(error.path): ")\(error.message)")
        }
    }

    private static func isVariableName(_ name: Substring) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}
