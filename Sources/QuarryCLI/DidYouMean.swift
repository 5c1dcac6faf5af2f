import ArgumentParser

/// "Did you mean …?" for a mistyped subcommand, as git and cargo suggest (ArgumentParser
/// suggests options itself, but reads a bad subcommand as the root's unknown options);
/// still a usage error, status 2 (docs/ARCHITECTURE.md#exit-statuses).
enum DidYouMean {
    /// The closest candidate within a small edit distance (a third of the word, at least 1,
    /// at most 3), or nil.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        let budget = max(1, min(3, word.count / 3))
        var best: (String, Int)?
        for c in candidates {
            let d = distance(Array(word.lowercased()), Array(c.lowercased()))
            if d <= budget, d < (best?.1 ?? .max) { best = (c, d) }
        }
        return best?.0
    }

    /// Edit distance counting an insertion, deletion, substitution or swap of two neighbours
    /// as one edit (optimal string alignment).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// The subcommand names `quarry` knows, with `help`.
    static var subcommands: [String] {
        QuarryCommand.configuration.subcommands.map { $0._commandName } + ["help"]
    }

    /// A usage message for a first argument that names no subcommand (ArgumentParser would
    /// go on to complain about the options that follow it); nil when it names one.
    static func unknownSubcommand(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !subcommands.contains(first) else { return nil }
        var text = "Error: Unknown subcommand '\(first)'."
        if let guess = suggestion(for: first, among: subcommands) {
            text += " Did you mean '\(guess)'?"
        } else {
            text += " The subcommands are " + subcommands.dropLast().joined(separator: ", ") + "."
        }
        return text + "\nUsage: quarry <subcommand>\n  See 'quarry --help' for more information.\n"
    }
}
