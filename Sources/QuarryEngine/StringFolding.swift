import Foundation
import QuarryCore

/// The string transformations behind `StringOptions`: Unicode full case folding for
/// `.caseInsensitive` and diacritic stripping for `.diacriticInsensitive`. Two strings are equal
/// under the options when their folded forms have the same Unicode scalars.
package enum StringFolding {
    /// `s` with the options applied: first diacritics are stripped (NFD, then combining marks
    /// dropped), then every scalar is case folded. With no options the string is unchanged; in
    /// particular `.caseInsensitive` alone does not normalize (`é` and `e\u{301}` stay apart,
    /// as they do for `=`).
    static func fold(_ s: String, _ options: StringOptions) -> String {
        if options.isEmpty { return s }
        var out = options.contains(.diacriticInsensitive) ? stripDiacritics(s) : s
        if options.contains(.caseInsensitive) {
            out = options.contains(.simpleCaseFolding) ? simpleCaseFold(out) : caseFold(out)
            // Folding can reintroduce a mark (İ folds to i + U+0307).
            if options.contains(.diacriticInsensitive) { out = stripDiacritics(out) }
        }
        return out
    }

    /// Full case folding (Unicode CaseFolding.txt, statuses C and F): `Straße`, `STRASSE` and
    /// `strasse` fold alike, and so do `ς`, `σ` and `Σ`. Turkic-specific mappings (status T)
    /// are not applied, so `ı` stays distinct from `i` and `I`, as in the default folding.
    static func caseFold(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: the folding is plain lowercasing.
            return String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if u.isASCII {
                out.append((0x41...0x5A).contains(u.value) ? Unicode.Scalar(UInt8(u.value + 0x20)) : u)
            } else {
                out.append(contentsOf: caseFold(u).unicodeScalars)
            }
        }
        return String(out)
    }

    /// Simple case folding (CaseFolding.txt statuses C and S), as PCRE2 matches caselessly:
    /// each scalar folds to one scalar, so `ß` stays apart from `ss` (ẞ folds to ß).
    static func simpleCaseFold(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return caseFold(s) }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            let full = u.isASCII ? caseFold(String(u)) : caseFold(u)
            if full.unicodeScalars.count == 1 {
                out.append(contentsOf: full.unicodeScalars)
            } else {
                // A multi-scalar full folding: the simple one is the lowercase when that is one
                // scalar (ẞ → ß, ᾈ → ᾀ), else the scalar itself (ß, İ, ﬁ).
                let lower = String(u).lowercased().unicodeScalars
                out.append(contentsOf: lower.count == 1 ? lower : String(u).unicodeScalars)
            }
        }
        return String(out)
    }

    /// The folding of one scalar, derived from the standard library's case mappings (which
    /// track the current Unicode version): the first of lower(upper(lower(u))), lower(u) and
    /// upper(u) that no longer changes under case folding. Cherokee, whose folding is its
    /// uppercase, takes the last candidate.
    static func caseFold(_ u: Unicode.Scalar) -> String {
        let properties = u.properties
        // Caseless scalars (digits, CJK, marks…) fold to themselves.
        if !properties.changesWhenCaseFolded && !properties.changesWhenUppercased { return String(u) }
        let s = String(u)
        let lowerUpperLower = s.lowercased().uppercased().lowercased()
        if !properties.changesWhenCaseFolded {
            // Already folded, except precomposed letters such as ǰ whose folding is their
            // canonical decomposition (the property is defined on NFD). `==` on String is
            // canonical equivalence, which tells those apart from ı → i (a different letter).
            return lowerUpperLower == s ? lowerUpperLower : s
        }
        for candidate in [lowerUpperLower, s.lowercased(), s.uppercased()] where isFolded(candidate) {
            return candidate
        }
        return s
    }

    /// For each ASCII scalar that the full case folding of some non-ASCII scalar holds, those
    /// non-ASCII scalars (`s`: ß ẞ ſ ﬅ ﬆ; `j`: ǰ; `k`: K; the ligatures…): only through one of
    /// them can a non-ASCII character fold into a match with an ASCII literal
    /// (docs/STORAGE.md#postgresql-residuals). Found once from `caseFold` over the planes that
    /// hold cased scalars, U+0080–U+1FFFF (`StringFoldingTests` checks the rest holds none), so
    /// it follows the standard library's Unicode version as the folding does.
    package static let nonASCIIFoldingInto: [UInt8: [Unicode.Scalar]] = foldingIntoASCII(in: 0x80...0x1FFFF)

    static func foldingIntoASCII(in range: ClosedRange<UInt32>) -> [UInt8: [Unicode.Scalar]] {
        var out: [UInt8: [Unicode.Scalar]] = [:]
        for v in range {
            guard let u = Unicode.Scalar(v), u.properties.changesWhenCaseFolded || u.properties.changesWhenUppercased
            else { continue }
            for f in Set(caseFold(u).unicodeScalars) where f.isASCII { out[UInt8(f.value), default: []].append(u) }
        }
        return out
    }

    private static func isFolded(_ s: String) -> Bool {
        s.unicodeScalars.allSatisfy { !$0.properties.changesWhenCaseFolded }
    }

    /// Canonical decomposition with the nonspacing and enclosing marks removed: `é` → `e`,
    /// `Ångström` → `Angstrom`. Letters that do not decompose (`ø`, `ł`) are kept, and so are
    /// spacing marks (Indic vowel signs are letters' parts, not diacritics).
    static func stripDiacritics(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return s }
        var out = String.UnicodeScalarView()
        for u in s.decomposedStringWithCanonicalMapping.unicodeScalars {
            switch u.properties.generalCategory {
            case .nonspacingMark, .enclosingMark: continue
            default: out.append(u)
            }
        }
        return String(out)
    }
}

extension StringOptions {
    /// Engine-internal: `.caseInsensitive` by simple case folding, as PCRE2 matches caselessly.
    static let simpleCaseFolding = StringOptions(rawValue: 0x80)

    /// The options a string test folds with. Parse's case-insensitive prefix, suffix and
    /// substring tests are `$regex` with `i` (docs/SEMANTICS.md), so under `.document` they fold
    /// as PCRE does: `ß` does not match `SS` there either.
    func folding(_ op: StringOperator, _ semantics: LeafSemantics) -> StringOptions {
        guard semantics == .document, op.isSubstringTest, contains(.caseInsensitive) else { return self }
        return union(.simpleCaseFolding)
    }
}
