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
    public static let abstract = "Show the rates of one or more currencies day by day, or draw them."
    public static let discussion: String? = """
        One row per day with a rate. --chart draws a line chart in the terminal; --format svg writes an SVG chart;
        --format ndjson streams one JSON object per line in constant memory. A range that reaches business days
        whose rates are out but not stored is an error, unless --partial.
        """
    public static var readsRange: Bool { true }
    public static var answerSchema: JSONText { AnswerSchema.series }

    /// The currencies.
    @Field(
        QuestionField(
            name: "currencies", kind: .currencies, help: "Currency codes, comma-separated (USD,JPY).",
            isRequired: true, placement: .argument))
    public var currencies: [CurrencyCode] = []
    /// The first day (nil: a year before the last).
    @Field(.from("The first day (default: a year before {to}).")) public var from: CalendarDay?
    /// The last day (nil: the newest stored).
    @Field(.to) public var to: CalendarDay?
    /// The currency quoted against.
    @Field(.base) public var base: CurrencyCode = .euro
    /// One row per period (nil: one row per day).
    @Field(
        QuestionField(
            name: "group", kind: .choice(SeriesGrouper.Period.allCases.map(\.rawValue)),
            help:
                "One row per week (from Monday), month, quarter or year, with its count of days: the mean of its rates, or {statistic}.",
            valueName: "period"))
    public var group: SeriesGrouper.Period?
    /// A period's figure (nil: the mean).
    @Field(
        QuestionField(
            name: "statistic", kind: .choice(SeriesGrouper.Statistic.allCases.map(\.rawValue)),
            help: "With {group}: mean (default), first, last, min or max.", valueName: "figure"))
    public var statistic: SeriesGrouper.Statistic?
    /// Whether a range the store lacks days of is answered from what it holds.
    @Field(.partial) public var partial = false
    @Field(.asOf) public var asOf: Date?

    public init() {}

    /// One row per period, with its figure (nil: one row per day).
    public var grouping: SeriesTable.Grouping? {
        group.map { SeriesTable.Grouping(period: $0, statistic: statistic ?? .mean) }
    }

    public func check() throws(QuestionRefusal) {
        try Self.checkRange(from: _from, to: _to)
        if statistic != nil && group == nil {
            let (statistic, group) = (_statistic.field, _group.field)
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
