extension WatchEvent: RenderableAnswer {
    public var text: String {
        switch event {
        case .rates(let rates):
            let table = TextTable.render(
                rates.rates.map { [$0.currency, NumberText.exact($0.rate)] }, rightAligned: [1])
            return "Rates per euro on \(rates.day):\n" + table
        case .correction(let correction):
            return
                "Correction: \(correction.currency) on \(correction.day) is \(NumberText.exact(correction.newRate)), "
                + "was \(NumberText.exact(correction.oldRate)) (\(correction.source))\n"
        }
    }

    public var json: JSONText {
        switch event {
        case .rates(let rates):
            return .object([
                ("event", .string("rates")), ("date", .string(rates.day.description)),
                ("rates", .object(rates.rates.map { ($0.currency, .decimal($0.rate)) })), ("token", .string(token)),
            ])
        case .correction(let correction):
            return .object([
                ("event", .string("correction")), ("date", .string(correction.day.description)),
                ("currency", .string(correction.currency)),
                ("old", .decimal(correction.oldRate)), ("new", .decimal(correction.newRate)),
                ("source", .string(correction.source)),
                ("token", .string(token)),
            ])
        }
    }

    public var csvRows: [[String]] {
        switch event {
        case .rates(let rates):
            return [["event", "date", "currency", "rate", "token"]]
                + rates.rates.map { ["rates", "\(rates.day)", $0.currency, NumberText.exact($0.rate), token] }
        case .correction(let c):
            return [
                ["event", "date", "currency", "old", "new", "source", "token"],
                [
                    "correction", "\(c.day)", c.currency, NumberText.exact(c.oldRate), NumberText.exact(c.newRate),
                    c.source, token,
                ],
            ]
        }
    }
}
