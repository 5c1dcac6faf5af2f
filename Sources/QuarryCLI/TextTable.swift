/// `--format table`: a header, a rule, one aligned line per row, and a row count, like psql.
struct TextTable {
    struct Cell {
        var text: String
        /// Numbers read best right-aligned; a column is when all its numeric-or-not cells are
        /// numbers. Nil (empty, null) has no say.
        var numeric: Bool?
        static let empty = Cell(text: "", numeric: nil)
    }

    var columns: [String]
    var rows: [[Cell]]
    /// Longer cells are cut and end with `…`, so one long field cannot push the others away.
    var maxCellWidth = 40

    /// The cells as shown (escaped and clipped), the width of each column and whether it is
    /// right-aligned.
    private func layout() -> (header: [String], body: [[Cell]], widths: [Int], numeric: [Bool]) {
        let header = columns.map { clip(visible($0)) }
        let body = rows.map { row in
            columns.indices.map { i in
                let cell = i < row.count ? row[i] : .empty
                return Cell(text: clip(visible(cell.text)), numeric: cell.numeric)
            }
        }
        var widths = header.map(\.count)
        var numeric = Array(repeating: true, count: columns.count)
        for row in body {
            for (i, cell) in row.enumerated() {
                widths[i] = max(widths[i], cell.text.count)
                if cell.numeric == false { numeric[i] = false }
            }
        }
        return (header, body, widths, numeric)
    }

    /// psql's layout; with `style`, the header bold and the rule and row count dim.
    func render(style: Style = .plain) -> String {
        let (header, body, widths, numeric) = layout()
        let head = line(header.map { Cell(text: $0, numeric: false) }, widths: widths, rightAligned: numeric)
        var out = style.bold(String(head.dropLast())) + "\n"
        out += style.dim(widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-")) + "\n"
        for row in body { out += line(row, widths: widths, rightAligned: numeric) }
        out += style.dim("(\(rows.count) \(rows.count == 1 ? "row" : "rows"))") + "\n"
        return out
    }

    /// sqlite3's `.mode box`: the grid drawn with box-drawing characters, no row count.
    func renderBox(style: Style = .plain) -> String {
        let (header, body, widths, numeric) = layout()
        func rule(_ left: String, _ middle: String, _ right: String) -> String {
            style.dim(left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right)
                + "\n"
        }
        func boxed(_ cells: [Cell], bold: Bool) -> String {
            let bar = style.dim("│")
            var out = bar
            for (i, cell) in cells.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - cell.text.count)
                let text = numeric[i] && !bold ? pad + cell.text : cell.text + pad
                out += " " + (bold ? style.bold(text) : text) + " " + bar
            }
            return out + "\n"
        }
        var out = rule("┌", "┬", "┐")
        out += boxed(header.map { Cell(text: $0, numeric: false) }, bold: true)
        out += rule("├", "┼", "┤")
        for row in body { out += boxed(row, bold: false) }
        out += rule("└", "┴", "┘")
        return out
    }

    private func line(_ cells: [Cell], widths: [Int], rightAligned: [Bool]) -> String {
        var parts: [String] = []
        for (i, cell) in cells.enumerated() {
            let pad = String(repeating: " ", count: widths[i] - cell.text.count)
            parts.append(rightAligned[i] ? pad + cell.text : cell.text + pad)
        }
        var text = parts.joined(separator: " | ")
        while text.last == " " { text.removeLast() }
        return text + "\n"
    }

    /// Control characters would break the grid; show them escaped.
    private func visible(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return s }
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F {
                    out += "\\u{\(String(u.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }

    private func clip(_ s: String) -> String {
        s.count <= maxCellWidth ? s : String(s.prefix(maxCellWidth - 1)) + "…"
    }
}
