extension RatesAnswer: RenderableAnswer {
    /// A table for people, with one header line when the rates share a day.
    public var text: String {
        guard let first = rates.first else { return "" }
        let sameDay = rates.allSatisfy {
            $0.day == first.day && $0.asked == first.asked && $0.interpolatedBetween == first.interpolatedBetween
        }
        var header = "Rates per \(base == "EUR" ? "euro" : base) "
        if sameDay {
            if let between = first.interpolatedBetween, between.count == 2 {
                header +=
                    "on \(first.day), interpolated between \(between[0]) and \(between[1])"
                    + (first.reason.map { " (\($0))" } ?? "")
            } else {
                header +=
                    "on \(first.day)"
                    + (first.asked.map { " (asked \($0)" + (first.reason.map { ", \($0)" } ?? "") + ")" } ?? "")
            }
        } else {
            header += "(each on the day shown)"
        }
        let rows = rates.map { answer in
            [answer.currency, NumberText.rate(answer)] + (sameDay ? [] : [answer.day.description])
        }
        return header + ":\n" + TextTable.render(rows, rightAligned: [1])
    }

    public var json: JSONText { .object([("base", .string(base)), ("rates", .array(rates.map(\.json)))]) }

    public var csvRows: [[String]] { [RateAnswer.csvHeader] + rates.map(\.csvFields) }

    /// One rate per line.
    public var ndjson: [JSONText] { rates.map(\.json) }
}
