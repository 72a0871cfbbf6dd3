extension ConversionAnswer: RenderableAnswer {
    /// The result with exactly its decimal places (`63008986.55`, `15700`).
    public var resultText: String { NumberText.text(result, places: places) }

    /// `100 USD = 15700 JPY on 2026-09-30 (1 USD = 156.997 JPY)`, with the day used and why.
    public var text: String {
        var line =
            "\(amountText ?? NumberText.exact(amount)) \(rate.base) = \(resultText) \(rate.currency) on \(rate.day)"
        line += " (1 \(rate.base) = \(NumberText.rate(rate)) \(rate.currency)"
        if let between = rate.interpolatedBetween, between.count == 2 {
            line += "; interpolated between \(between[0]) and \(between[1])"
        }
        if let euro = throughEuro {
            line +=
                "; through \(NumberText.text(euro, places: 3)) EUR, rounded to three decimals as Regulation (EC) 1103/97 has it"
        }
        if let asked = rate.asked {
            line += "; asked \(asked)" + (rate.reason.map { ", \($0)" } ?? "")
        } else if let reason = rate.reason {
            line += "; " + reason
        }
        if let legs = rate.legsNote { line += "; " + legs }
        return line + ")\n"
    }

    public var json: JSONText {
        .object(
            [
                ("amount", .decimal(amount)), ("from", .string(rate.base)), ("to", .string(rate.currency)),
                ("result", .raw(resultText)), ("rate", .raw(NumberText.machineRate(rate))),
            ] + (throughEuro.map { [("throughEuro", .raw(NumberText.text($0, places: 3)))] } ?? [])
                + rate.provenanceJSON + [("legs", rate.legsJSON)])
    }

    public var csvRows: [[String]] {
        [
            ["amount", "from", "to", "result", "rate", "day", "asked", "reason"],
            [
                NumberText.exact(amount), rate.base, rate.currency, resultText, NumberText.machineRate(rate),
                "\(rate.day)",
                rate.asked.map { "\($0)" } ?? "", rate.reason ?? "",
            ],
        ]
    }
}
