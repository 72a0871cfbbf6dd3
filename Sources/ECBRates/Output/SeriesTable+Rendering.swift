import EurofxrefFeed
import Foundation

extension SeriesTable: RenderableAnswer {
    /// True when the values are derived (cross rates, or the means of a grouped series), shown
    /// to 6 significant digits for people and 20 for programs; else the published rates, exactly.
    public var isDerived: Bool { Self.isDerived(base: base, grouping: grouping) }

    /// Whether a series against `base`, grouped so, holds derived values.
    static func isDerived(base: String, grouping: Grouping?) -> Bool { base != "EUR" || grouping?.statistic == .mean }

    /// The date column's name: `date`, `week`, `month`, `quarter` or `year`.
    public var dateColumn: String { grouping?.period.rawValue ?? "date" }

    /// A figure of the table as its text (`machine`: false) or its JSON and CSV (true) write it.
    public func cell(_ value: Decimal, machine: Bool) -> String {
        NumberText.figure(value, derived: isDerived, machine: machine)
    }

    public var text: String {
        // A grouped series says of how many publications each row was made, and, beside a
        // figure made of fewer (a currency without a rate on some of them), of how many.
        let counted = grouping != nil
        var fewer = false
        let table = TextTable.render(
            [[dateColumn] + (counted ? ["days"] : []) + currencies]
                + rows.map { row in
                    ["\(row.day)"] + (counted ? ["\(row.days ?? 0)"] : [])
                        + row.rates.enumerated().map { index, rate in
                            guard let rate else { return "-" }
                            let text = cell(rate, machine: false)
                            if let count = row.counts?[index], count != row.days {
                                fewer = true
                                return "\(text) (\(count))"
                            }
                            return text
                        }
                }, rightAligned: Set(1...(currencies.count + (counted ? 1 : 0))))
        return table + (fewer ? "(n): a figure of n days, where the currency has no rate on the others\n" : "")
    }

    public var json: JSONText {
        .object([
            ("base", .string(base)), ("currencies", .array(currencies.map { .string($0) })),
            ("group", grouping.map { .string($0.period.rawValue) } ?? .null),
            ("statistic", grouping.map { .string($0.statistic.rawValue) } ?? .null),
            ("complete", .bool(missing.isEmpty)), ("missing", .array(missing.map { .string($0.description) })),
            ("rows", .array(ndjson)),
        ])
    }

    public var csvRows: [[String]] {
        // A grouped series of several currencies also gives each one's count of days.
        let counted = grouping != nil
        let perCurrency = counted && currencies.count > 1
        return [
            [dateColumn] + (counted ? ["days"] : []) + currencies + (perCurrency ? currencies.map { "\($0)_days" } : [])
        ]
            + rows.map { row in
                ["\(row.day)"] + (counted ? ["\(row.days ?? 0)"] : [])
                    + row.rates.map { $0.map { cell($0, machine: true) } ?? "" }
                    + (perCurrency ? (row.counts ?? []).map { "\($0)" } : [])
            }
    }

    /// One row per line: `{"date":"2024-03-28","USD":1.0811}`.
    public var ndjson: [JSONText] { rows.map { Self.json($0, currencies: currencies, derived: isDerived) } }

    /// One row as JSON, for a series streamed row by row (it is never held whole): the same
    /// object as a row of ``ndjson``.
    public static func ndjsonLine(_ row: Row, currencies: [String], base: String, grouping: Grouping?) -> String {
        json(row, currencies: currencies, derived: isDerived(base: base, grouping: grouping)).text + "\n"
    }

    static func json(_ row: Row, currencies: [String], derived: Bool) -> JSONText {
        .object(
            [("date", .string(row.day.description))] + (row.days.map { [("days", JSONText.number(Double($0)))] } ?? [])
                + zip(currencies, row.rates).map { code, rate in
                    (code, rate.map { .raw(NumberText.figure($0, derived: derived, machine: true)) } ?? .null)
                }
                // A grouped row of several currencies: each one's count of days too.
                + (row.counts.flatMap { counts in
                    currencies.count > 1
                        ? [("currencyDays", .object(zip(currencies, counts).map { ($0, .number(Double($1))) }))] : nil
                } ?? []))
    }
}
