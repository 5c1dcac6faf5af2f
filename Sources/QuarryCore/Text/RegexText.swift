/// Regular expressions rewritten from Parse's search (`$regex` matches anywhere) to
/// NSPredicate's MATCHES (the whole string must match, only `[c]` as an option).
package enum RegexText {
    /// `p` searched for is `(?s:.*?)(?:p\E)(?s:.*)` matched against the whole string: the
    /// wrapper's groups capture nothing (backreferences keep their numbers), `\E` closes a `\Q`
    /// left open at the end (PCRE ignores a lone `\E`), and `^`, `\A` and lookbehinds see the
    /// same subject. The `m` and `s` flags become inline options in front, which PCRE applies to
    /// the whole pattern, and `i` stays a flag (NSPredicate's `[c]`).
    ///
    /// Nil when the rewrite could change the meaning: `\G` (the start of a search attempt),
    /// `(*…)` verbs and start-of-pattern settings, and extended mode, where a trailing `#`
    /// comment would swallow the wrapper.
    package static func wholeString(_ pattern: String, _ options: RegexOptions) -> (pattern: String, options: RegexOptions)? {
        guard !options.flags.contains(.extended), !pattern.contains("\\G"), !pattern.contains("(*"),
              !(pattern.contains("#") && pattern.contains("(?"))
        else { return nil }
        var inline = ""
        if options.flags.contains(.multiline) { inline += "m" }
        if options.flags.contains(.dotAll) { inline += "s" }
        let prefix = inline.isEmpty ? "" : "(?\(inline))"
        let wrapped = prefix + "(?s:.*?)(?:" + pattern + "\\E)(?s:.*)"
        return (wrapped, RegexOptions(wholeString: true, flags: options.flags.intersection(.caseInsensitive)))
    }
}
