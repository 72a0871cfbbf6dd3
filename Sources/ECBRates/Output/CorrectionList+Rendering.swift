extension CorrectionList: RenderableAnswer {
    public var text: String {
        if corrections.isEmpty {
            return "No corrections recorded" + (currency.map { " for \($0)" } ?? "")
                + (since.map { " since \($0)" } ?? "") + ".\n"
        }
        return TextTable.render(
            [["day", "currency", "old", "new", "corrected at", "by"]]
                + corrections.map {
                    [
                        "\($0.day)", $0.currency, "\($0.oldRate)", "\($0.newRate)", AsOfMoment.text($0.correctedAt),
                        $0.source,
                    ]
                },
            rightAligned: [2, 3])
    }

    public var json: JSONText { .array(ndjson) }

    public var csvRows: [[String]] {
        [["day", "currency", "old", "new", "corrected_at", "source"]]
            + corrections.map {
                [
                    "\($0.day)", $0.currency, "\($0.oldRate)", "\($0.newRate)", AsOfMoment.text($0.correctedAt),
                    $0.source,
                ]
            }
    }

    /// One correction per line.
    public var ndjson: [JSONText] {
        corrections.map {
            .object([
                ("day", .string($0.day.description)), ("currency", .string($0.currency)),
                ("old", .decimal($0.oldRate)), ("new", .decimal($0.newRate)),
                ("correctedAt", .string(AsOfMoment.text($0.correctedAt))), ("source", .string($0.source)),
            ])
        }
    }
}
