import Foundation
import Quarry

/// `--format csv`: RFC 4180. A header line of column names, then one line per object; a field
/// holding a comma, quote, CR or LF is quoted with its quotes doubled. A missing field and null
/// are both empty (as sqlite3 prints NULL); other values as a table cell shows them.
enum CSVText {
    static func render(columns: [String], records: [Record]) -> String {
        var out = columns.map(field).joined(separator: ",") + "\r\n"
        for record in records {
            out +=
                columns.map { name in
                    guard let value = record[name], value != .null else { return "" }
                    return field(CellText.text(value))
                }.joined(separator: ",") + "\r\n"
        }
        return out
    }

    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// `--format markdown`: a GitHub-flavoured table, numbers right-aligned; `|` is escaped and line
/// breaks become `<br>` so that a cell stays on its row.
enum MarkdownTable {
    static func render(columns: [String], records: [Record]) -> String {
        let cells = records.map { r in columns.map { CellText.cell(r[$0]) } }
        var out = "| " + columns.map(escape).joined(separator: " | ") + " |\n|"
        for i in columns.indices {
            let numeric = cells.allSatisfy { $0[i].numeric != false } && !cells.isEmpty
            out += numeric ? " ---: |" : " --- |"
        }
        out += "\n"
        for row in cells { out += "| " + row.map { escape($0.text) }.joined(separator: " | ") + " |\n" }
        return out
    }

    private static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "|": out += "\\|"
            case "\n", "\r\n", "\r": out += "<br>"
            default: out.append(c)
            }
        }
        return out
    }
}
