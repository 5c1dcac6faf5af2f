import QuarryCore

// INTERIM until `BackendlessDate` (branch `dates`) lands in main: reads only the printer's own
// `yyyy-MM-ddTHH:mm:ss.SSSZ`. Replaced by calls to BackendlessDate at the merge.
enum DateLiterals {
    static let acceptedForms = ["yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"]

    static func milliseconds(_ s: String) -> Int64? {
        let b = Array(s.utf8)
        guard b.count == 24 else { return nil }
        func num(_ r: Range<Int>) -> Int64? { Int64(String(decoding: b[r], as: UTF8.self)) }
        guard let y = num(0..<4), let mo = num(5..<7), let d = num(8..<10), let h = num(11..<13),
              let mi = num(14..<16), let se = num(17..<19), let ms = num(20..<23) else { return nil }
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (mo > 2 ? mo - 3 : mo + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return days * 86_400_000 + h * 3_600_000 + mi * 60_000 + se * 1000 + ms
    }
}
