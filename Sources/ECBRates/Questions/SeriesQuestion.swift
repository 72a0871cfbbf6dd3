import EurofxrefFeed
import Foundation

/// `series`: rates day by day over a range, or one figure per week, month, quarter or year.
public struct SeriesQuestion: Question {
    public static let name = "series"
    public static let title = "Rates over a range of days"
    public static let summary = """
        The rates of currencies on every publication from one day to another (default: the last year), or one \
        figure per week, month, quarter or year (mean, first, last, min or max). A range that reaches business \
        days whose rates are out but not stored is refused, unless partial.
        """
    public static let fields: [QuestionField] = [
        QuestionField(
            name: "currencies", kind: .currencies, help: "Currency codes, comma-separated (USD,JPY).",
            isRequired: true, placement: .argument),
        .from("The first day (default: a year before {to})."), .to, .base,
        QuestionField(
            name: "group", kind: .choice(SeriesGrouper.Period.allCases.map(\.rawValue)),
            help:
                "One row per week (from Monday), month, quarter or year, with its count of days: the mean of its rates, or {statistic}.",
            valueName: "period"),
        QuestionField(
            name: "statistic", kind: .choice(SeriesGrouper.Statistic.allCases.map(\.rawValue)),
            help: "With {group}: mean (default), first, last, min or max.", valueName: "figure"),
        .partial, .asOf,
    ]
    public static var answerSchema: JSONText { AnswerSchema.series }

    /// The currencies.
    public var currencies: [String]
    /// The first day (nil: a year before the last).
    public var from: CalendarDay?
    /// The last day (nil: the newest stored).
    public var to: CalendarDay?
    /// The currency quoted against.
    public var base: String
    /// One row per period, with its figure (nil: one row per day).
    public var grouping: SeriesTable.Grouping?
    /// Whether a range the store lacks days of is answered from what it holds.
    public var partial: Bool
    public var asOf: Date?

    public init(_ input: QuestionInput) throws(QuestionRefusal) {
        currencies = input.currencies("currencies") ?? []
        from = input.day("from")
        to = input.day("to")
        base = input.currency("base") ?? "EUR"
        partial = input.flag("partial")
        asOf = input.moment("as_of")
        let statistic = input.choice("statistic", SeriesGrouper.Statistic.self)
        grouping = input.choice("group", SeriesGrouper.Period.self).map {
            SeriesTable.Grouping(period: $0, statistic: statistic ?? .mean)
        }
        try Self.checkRange(from: from, to: to)
        if statistic != nil && grouping == nil {
            let (statistic, group) = (Self.field("statistic"), Self.field("group"))
            throw QuestionRefusal(.conflict { door in "\(door.label(statistic)) needs \(door.label(group))" })
        }
    }

    public var lastDayAsked: CalendarDay? { to }

    /// The range asked for, with its defaults: the year before the newest stored day.
    public func range(_ queries: RateQueries) throws -> (first: CalendarDay, last: CalendarDay) {
        let end = try to ?? queries.bounds().last
        return (from ?? end.adding(days: -365), end)
    }

    public func answer(_ queries: RateQueries, context: QuestionContext) throws -> Answered<SeriesTable> {
        let (first, last) = try range(queries)
        var table = try queries.series(currencies, from: first, to: last, base: base, partial: partial)
        if let grouping {
            var rows: [SeriesTable.Row] = []
            var grouper = SeriesGrouper(
                period: grouping.period, statistic: grouping.statistic, columns: table.currencies.count
            ) { rows.append($0) }
            for row in table.rows { try grouper.add(row) }
            try grouper.finish()
            table = SeriesTable(currencies: table.currencies, rows: rows, missing: table.missing, base: table.base)
            table.grouping = grouping
        }
        return Answered(
            table,
            warnings: [
                .incompleteAnswer(missing: table.missing), to == nil ? Self.staleWarning(queries) : nil,
                grouping == nil ? .largeAnswer(days: table.rows.count, currencies: table.currencies.count) : nil,
            ])
    }
}
