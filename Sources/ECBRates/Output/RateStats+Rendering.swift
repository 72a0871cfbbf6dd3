import Foundation

extension RateStats: RenderableAnswer {
    /// A rate as published against the euro; a cross rate as a derived value.
    func figure(_ value: Decimal, machine: Bool) -> String {
        NumberText.figure(value, derived: base != "EUR", machine: machine)
    }
    /// The mean, always a derived value.
    func meanText(machine: Bool) -> String { NumberText.figure(mean, derived: true, machine: machine) }

    public var text: String {
        let change = NumberText.exact(changePercent)
        let fields: [(String, String, String?)] = [
            ("first", figure(first.rate, machine: false), "\(first.day)"),
            ("last", figure(last.rate, machine: false), "\(last.day)"),
            ("min", figure(minimum.rate, machine: false), "\(minimum.day)"),
            ("max", figure(maximum.rate, machine: false), "\(maximum.day)"),
            ("mean", meanText(machine: false), nil), ("change", "\(change)%", nil),
        ]
        let per = base == "EUR" ? "euro" : base
        return "\(currency) per \(per), \(from)..\(to) (\(days) day\(days == 1 ? "" : "s")):\n"
            + TextTable.render(fields.map { [$0.0, $0.1] + ($0.2.map { ["on \($0)"] } ?? [""]) }, rightAligned: [1])
    }

    public var json: JSONText {
        func point(_ point: DatedRate) -> JSONText {
            .object([("day", .string(point.day.description)), ("rate", .raw(figure(point.rate, machine: true)))])
        }
        return .object([
            ("currency", .string(currency)), ("base", .string(base)), ("from", .string(from.description)),
            ("to", .string(to.description)),
            ("days", .number(Double(days))), ("first", point(first)), ("last", point(last)),
            ("min", point(minimum)), ("max", point(maximum)), ("mean", .raw(meanText(machine: true))),
            ("changePercent", .decimal(changePercent)),
            ("complete", .bool(missing.isEmpty)), ("missing", .array(missing.map { .string($0.description) })),
        ])
    }

    public var csvRows: [[String]] {
        [
            [
                "currency", "base", "from", "to", "days", "first", "first_day", "last", "last_day", "min", "min_day",
                "max", "max_day", "mean",
                "change_percent",
            ],
            [
                currency, base, "\(from)", "\(to)", "\(days)", figure(first.rate, machine: true), "\(first.day)",
                figure(last.rate, machine: true),
                "\(last.day)", figure(minimum.rate, machine: true), "\(minimum.day)",
                figure(maximum.rate, machine: true), "\(maximum.day)",
                meanText(machine: true), NumberText.exact(changePercent),
            ],
        ]
    }
}
