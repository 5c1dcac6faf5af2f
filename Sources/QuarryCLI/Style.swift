import ArgumentParser

/// `--color auto|always|never`: whether the tool writes ANSI colour
/// (docs/ARCHITECTURE.md#terminals-and-pipes).
enum ColorChoice: String, CaseIterable, ExpressibleByArgument {
    /// Colour on a terminal, unless `NO_COLOR` is set to a non-empty value (no-color.org).
    case auto
    case always
    case never
}

/// `--color`, shared by every subcommand.
struct ColorOption: ParsableArguments {
    @Option(
        name: .customLong("color"),
        help: ArgumentHelp(
            "Colour diagnostics and table headers: auto (on a terminal, unless NO_COLOR is set), always or never.",
            valueName: "when"))
    var choice: ColorChoice = .auto
}

/// ANSI styling, or none.
struct Style {
    var enabled: Bool

    static let plain = Style(enabled: false)

    /// Whether to colour a stream: `always`, `never`, or for `auto` a terminal without
    /// `NO_COLOR`.
    static func choose(_ choice: ColorChoice, terminal: Bool, environment: [String: String]) -> Style {
        switch choice {
        case .always: return Style(enabled: true)
        case .never: return .plain
        case .auto: return Style(enabled: terminal && (environment["NO_COLOR"] ?? "").isEmpty)
        }
    }

    func bold(_ s: String) -> String { wrap(s, "1") }
    func dim(_ s: String) -> String { wrap(s, "2") }
    func red(_ s: String) -> String { wrap(s, "1;31") }
    func yellow(_ s: String) -> String { wrap(s, "1;33") }
    func blue(_ s: String) -> String { wrap(s, "1;34") }
    func green(_ s: String) -> String { wrap(s, "32") }

    private func wrap(_ s: String, _ code: String) -> String {
        enabled && !s.isEmpty ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }

    /// A diagnostic rendered by `SourceText.render`, coloured as a compiler colours it: the
    /// severity and code, the location arrow and gutter, the carets.
    func diagnostics(_ text: String) -> String {
        guard enabled else { return text }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let endsWithNewline = lines.last == ""
        if endsWithNewline { lines.removeLast() }
        var result = ""
        for line in lines {
            result += styledLine(line) + "\n"
        }
        return endsWithNewline ? result : String(result.dropLast())
    }

    private func styledLine(_ line: Substring) -> String {
        for (prefix, color) in [("error", red), ("warning", yellow), ("note", green)] as [(String, (String) -> String)]
        where line.hasPrefix(prefix + "[") || line.hasPrefix(prefix + ":") {
            guard let colon = line.range(of: ": ") else { return color(String(line)) }
            return color(String(line[..<colon.lowerBound])) + bold(String(line[colon.lowerBound...]))
        }
        // ` --> 1:7`, `  |`, `1 | text`, `  |   ^^^`: the gutter blue, the carets red.
        guard let bar = line.firstIndex(of: "|") ?? line.range(of: "-->")?.lowerBound else { return String(line) }
        let gutter = line[..<bar]
        guard gutter.allSatisfy({ $0 == " " || $0.isNumber }) else { return String(line) }
        if line[bar...].hasPrefix("-->") {
            return blue(String(gutter) + "-->") + String(line[line.index(bar, offsetBy: 3)...])
        }
        let rest = line[line.index(after: bar)...]
        if gutter.allSatisfy({ $0 == " " }), rest.allSatisfy({ $0 == " " || $0 == "^" || $0 == "-" }),
            rest.contains(where: { $0 != " " })
        {
            let carets = rest.drop { $0 == " " }
            return blue(String(line[...bar])) + String(rest.prefix(rest.count - carets.count)) + red(String(carets))
        }
        return blue(String(line[...bar])) + String(rest)
    }
}
