extension CurrencyList: RenderableAnswer {
    public var text: String {
        TextTable.render(
            [["code", "name", "first", "last", "rates"]]
                + currencies.map { [$0.code, $0.name, "\($0.firstDay)", "\($0.lastDay)", "\($0.rates)"] },
            rightAligned: [4])
    }

    public var json: JSONText { .array(ndjson) }

    public var csvRows: [[String]] {
        [["code", "name", "first_day", "last_day", "rates"]]
            + currencies.map { [$0.code, $0.name, "\($0.firstDay)", "\($0.lastDay)", "\($0.rates)"] }
    }

    /// One currency per line.
    public var ndjson: [JSONText] {
        currencies.map {
            .object([
                ("code", .string($0.code)), ("name", .string($0.name)),
                ("firstDay", .string($0.firstDay.description)),
                ("lastDay", .string($0.lastDay.description)), ("rates", .number(Double($0.rates))),
            ])
        }
    }
}
