extension ValidationAnswer: RenderableAnswer {
    /// `eurofxref-daily.xml: ok, 1 day 2026-09-30, 29 rates, 29 currencies`, a line per file.
    public var text: String { files.map { "\($0.source): ok, \($0)\n" }.joined() }

    public var json: JSONText {
        .object([
            ("files", .array(ndjson)),
            (
                "failed",
                .array(
                    failed.map {
                        .object([
                            ("source", .string($0.source)), ("error", .string($0.message)), ("code", .string($0.code)),
                        ])
                    })
            ),
        ])
    }

    public var csvRows: [[String]] {
        [["source", "days", "rates", "currencies", "first_day", "last_day"]]
            + files.map {
                [
                    $0.source, "\($0.days)", "\($0.rates)", $0.currencies.joined(separator: " "),
                    $0.firstDay.map(\.description) ?? "", $0.lastDay.map(\.description) ?? "",
                ]
            }
    }

    /// One file per line.
    public var ndjson: [JSONText] {
        files.map { summary in
            .object([
                ("source", .string(summary.source)), ("days", .number(Double(summary.days))),
                ("rates", .number(Double(summary.rates))),
                ("currencies", .array(summary.currencies.map { .string($0) })),
                ("firstDay", summary.firstDay.map { .string($0.description) } ?? .null),
                ("lastDay", summary.lastDay.map { .string($0.description) } ?? .null),
            ])
        }
    }
}
