/// Regular expressions rewritten from Parse's search (`$regex` matches anywhere) to
/// NSPredicate's MATCHES (the whole string must match, only `[c]` as an option), or to a plain
/// string test where the pattern is a literal.
package enum RegexText {
    /// `p` searched for is `(?s:.*?)(?:p)(?s:.*)` matched against the whole string: the
    /// wrapper's groups capture nothing (backreferences keep their numbers), and `^`, `\A` and
    /// lookbehinds see the same subject. A pattern anchored by a leading `^` (no `|`, no `m`
    /// flag) needs no leading wrapper. `\E` closes a `\Q` left open at the end. The `m` and `s`
    /// flags become inline options in front, which PCRE applies to the whole pattern, and `i`
    /// stays a flag (NSPredicate's `[c]`).
    ///
    /// Nil when the rewrite could change the meaning: `\G` (the start of a search attempt),
    /// `(*…)` verbs and start-of-pattern settings, and extended mode, where a trailing `#`
    /// comment would swallow the wrapper.
    package static func wholeString(_ pattern: String, _ options: RegexOptions) -> (
        pattern: String, options: RegexOptions
    )? {
        guard !options.flags.contains(.extended), !pattern.contains("\\G"), !pattern.contains("(*"),
            !(pattern.contains("#") && pattern.contains("(?"))
        else { return nil }
        var inline = ""
        if options.flags.contains(.multiline) { inline += "m" }
        if options.flags.contains(.dotAll) { inline += "s" }
        let prefix = inline.isEmpty ? "" : "(?\(inline))"
        let anchored = pattern.hasPrefix("^") && !pattern.contains("|") && !options.flags.contains(.multiline)
        let body = pattern + (endsInsideQuote(pattern) ? "\\E" : "")
        let wrapped = prefix + (anchored ? "" : "(?s:.*?)") + "(?:" + body + ")(?s:.*)"
        return (wrapped, RegexOptions(wholeString: true, flags: options.flags.intersection(.caseInsensitive)))
    }

    /// Whether a `\Q` quote is still open at the end of the pattern (a closing `\E` is needed
    /// before anything is appended; PCRE ignores a `\E` that closes nothing).
    static func endsInsideQuote(_ pattern: String) -> Bool {
        let b = Array(pattern.utf8)
        var i = 0
        var quoted = false
        while i < b.count {
            if b[i] == backslash, i + 1 < b.count {
                if quoted { quoted = b[i + 1] != UInt8(ascii: "E") } else { quoted = b[i + 1] == UInt8(ascii: "Q") }
                // Inside a quote only `\E` is special: any other backslash is itself.
                i += quoted && b[i + 1] != UInt8(ascii: "Q") ? 1 : 2
            } else {
                i += 1
            }
        }
        return quoted
    }

    /// A searched pattern that is only literal text, as the string test that says the same:
    /// `^text` is a prefix test, `text` a substring test. With the `i` flag, only where PCRE's
    /// caseless matching and the string tests' full case folding agree on every scalar (see
    /// `foldsAlike`). Nil for any other pattern, or an empty text (a regex that matches every
    /// string, which no string test says).
    package static func literalTest(_ pattern: String, _ options: RegexOptions)
        -> (op: StringOperator, text: String, options: StringOptions)?
    {
        guard !options.wholeString, options.flags.isSubset(of: [.caseInsensitive, .dotAll, .multiline]) else {
            return nil
        }
        var scalars = Array(pattern.unicodeScalars)
        let anchored = scalars.first == "^"
        // With `m`, `^` also matches after each newline.
        if anchored {
            guard !options.flags.contains(.multiline) else { return nil }
            scalars.removeFirst()
        }
        guard let text = literal(scalars), !text.isEmpty else { return nil }
        let caseless = options.flags.contains(.caseInsensitive)
        if caseless && !text.unicodeScalars.allSatisfy(foldsAlike) { return nil }
        return (anchored ? .beginsWith : .contains, text, caseless ? .caseInsensitive : [])
    }

    /// The text a sequence of PCRE literals stands for: letters, digits and punctuation that
    /// is not a metacharacter, `\` before ASCII punctuation, `\Q…\E` quotes and non-ASCII
    /// scalars. Nil when anything else appears.
    private static func literal(_ s: [Unicode.Scalar]) -> String? {
        var out = String.UnicodeScalarView()
        var i = 0
        while i < s.count {
            let u = s[i]
            if u == "\\" {
                guard i + 1 < s.count else { return nil }
                let next = s[i + 1]
                if next == "Q" {
                    var j = i + 2
                    while j < s.count, !(s[j] == "\\" && j + 1 < s.count && s[j + 1] == "E") {
                        out.append(s[j])
                        j += 1
                    }
                    i = j + 2
                    continue
                }
                // `\` before ASCII punctuation is the character itself; before a letter or digit
                // it is a class, an anchor or a back reference.
                guard (0x21...0x7E).contains(next.value), !next.properties.isAlphabetic,
                    next.properties.numericType == nil
                else { return nil }
                out.append(next)
                i += 2
                continue
            }
            if u.isASCII {
                let plain =
                    (u.properties.isAlphabetic || u.properties.numericType != nil || u == "_" || u == " "
                        || "!\"#%&',-/:;<=>@~`".unicodeScalars.contains(u))
                guard plain else { return nil }
            } else if u.properties.generalCategory == .control || u.properties.isWhitespace {
                return nil
            }
            out.append(u)
            i += 1
        }
        return String(out)
    }

    /// A GLOB pattern that every string the pattern matches also matches, so that a store can
    /// drop rows that fail it before running the pattern (docs/STORAGE.md#regular-expressions):
    /// the pattern's leading plain ASCII literals and `.`s, each `.` a `?` (one scalar, as in
    /// PCRE's UTF mode), then `*`. Read conservatively: a search must begin with `^` (without
    /// `m`, the start of the subject only); a whole-string pattern may begin with `(?s)`, then
    /// with the search rewrite's `(?:^…)(?s:.*)` with no other parenthesis in its body, or with
    /// a `^`. The last item is left out unless what follows cannot quantify it. Nil with `i` or
    /// `x`, with any `|`, or when no literal leads the items kept.
    package static func globSuperset(_ pattern: String, _ options: RegexOptions) -> String? {
        guard options.flags.isDisjoint(with: [.caseInsensitive, .extended]), !pattern.utf8.contains(UInt8(ascii: "|"))
        else { return nil }
        var rest = Substring(pattern)
        if !options.wholeString {
            guard !options.flags.contains(.multiline), rest.hasPrefix("^") else { return nil }
            rest = rest.dropFirst()
        } else {
            if rest.hasPrefix("(?s)") { rest = rest.dropFirst(4) }
            // The rewrite of an anchored search: a group that nothing in its body can close
            // early or quantify, since the body has no parenthesis.
            if rest.hasPrefix("(?:^"), rest.hasSuffix(")(?s:.*)") {
                let body = rest.dropFirst(4).dropLast(8)
                guard !body.contains("("), !body.contains(")") else { return nil }
                rest = body
            } else if rest.hasPrefix("^") {
                // At the start of an anchored match `^` holds with or without `m`.
                rest = rest.dropFirst()
            }
        }
        var items = String.UnicodeScalarView()
        let scalars = rest.unicodeScalars
        var i = scalars.startIndex
        while i < scalars.endIndex, scalars[i] == "." || plainLiteral(scalars[i]) {
            items.append(scalars[i] == "." ? "?" : scalars[i])
            i = scalars.index(after: i)
        }
        // The last item is required only when what follows cannot quantify it: a quantifier
        // may come after `\E`, `\Q\E` or a `(?#…)` comment, which PCRE skips.
        if !items.isEmpty, !cannotQuantify(scalars[i...]) { items.removeLast() }
        guard items.contains(where: { $0 != "?" }) else { return nil }
        return String(items) + "*"
    }

    /// Whether `rest`, which follows an item, surely begins with a new one: `[`, `$`, a literal
    /// `globSuperset` leaves out (`_`, `%`, non-ASCII), a group that is no comment, or `\d`,
    /// `\w`, `\s` and their negations.
    private static func cannotQuantify(_ rest: Substring.UnicodeScalarView) -> Bool {
        guard let first = rest.first else { return true }
        let second = rest.dropFirst().first
        switch first {
        case "[", "$", "_", "%": return true
        case "(": return !rest.starts(with: "(?#".unicodeScalars)
        case "\\": return second.map { "dDwWsS".unicodeScalars.contains($0) } ?? false
        default: return !first.isASCII
        }
    }

    /// An ASCII scalar that stands for itself in a pattern without `x`: letters, digits and
    /// punctuation that is no metacharacter (and none of GLOB's or LIKE's either).
    private static func plainLiteral(_ u: Unicode.Scalar) -> Bool {
        guard u.isASCII else { return false }
        return u.properties.isAlphabetic || u.properties.numericType != nil || u == " "
            || "!\"#&',-/:;<=>@~`".unicodeScalars.contains(u)
    }

    /// Whether PCRE's caseless matching (UTF, UCP) of `u` and `[c]`'s full case folding accept
    /// the same subjects: ASCII only, and no letter that begins a multi-scalar folding (`ß` →
    /// `ss`, `ﬁ` → `fi`, `İ` → `i̇`, `ẖ`, `ẗ`, `ẘ`, `ẙ`, `ẚ`, `ǰ`) or that a sign folds to
    /// (`K` → `k`), which PCRE matches one scalar for one.
    static func foldsAlike(_ u: Unicode.Scalar) -> Bool {
        guard u.isASCII else { return false }
        return !"afhijkstwyAFHIJKSTWY".unicodeScalars.contains(u)
    }

    private static let backslash = UInt8(ascii: "\\")
}
