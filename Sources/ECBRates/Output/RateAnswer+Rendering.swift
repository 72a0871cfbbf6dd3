import EurofxrefFeed
import Foundation

extension RateAnswer: RenderableAnswer {
    /// `USD 1.0876 on 2024-03-28 (asked 2024-03-30, a Saturday)`
    public var text: String {
        var text = "\(currency) \(NumberText.rate(self))"
        if base != "EUR" { text += " per \(base)" }
        text += " on \(day)"
        if let between = interpolatedBetween, between.count == 2 {
            text += ", interpolated between \(between[0]) and \(between[1])"
            if let reason { text += " (\(reason))" }
        } else if let asked {
            text += " (asked \(asked)" + (reason.map { ", \($0)" } ?? "") + ")"
        } else if let reason {
            text += " (\(reason))"
        }
        if let legs = legsNote { text += "; " + legs }
        return text + "\n"
    }

    /// When the legs of a cross rate come from different days: which day each used
    /// (`USD of 2024-03-28, GBP interpolated between 2024-03-28 and 2024-04-02`); else nil.
    public var legsNote: String? {
        let legs = self.legs
        guard legs.count == 2, legs[0].sources.map(\.day) != legs[1].sources.map(\.day),
            legs.allSatisfy({ $0.fixedRate == nil })
        else { return nil }
        return legs.map { leg in
            if let between = leg.interpolatedBetween {
                "\(leg.currency) interpolated between \(between[0]) and \(between[1])"
            } else {
                "\(leg.currency) of \(leg.day)"
            }
        }.joined(separator: ", ")
    }

    /// Each leg for programs: the currency, its rate per euro, the day, and the published rates
    /// it comes from (exact), so that any answer can be recomputed.
    public var legsJSON: JSONText {
        .array(
            legs.map { leg in
                .object(
                    [
                        ("currency", .string(leg.currency)),
                        ("perEuro", leg.isPublished ? .decimal(leg.perEuro) : NumberText.machine(leg.perEuro)),
                        ("day", .string(leg.day.description)),
                    ]
                        + (leg.fixedRate.map { fixed in
                            [
                                (
                                    "fixed",
                                    .object([
                                        ("perEuro", .raw(fixed.text)), ("since", .string(fixed.since.description)),
                                    ])
                                )
                            ]
                        } ?? [
                            (
                                "published",
                                .array(
                                    leg.sources.map {
                                        .object([
                                            ("day", .string($0.day.description)), ("perEuro", .decimal($0.perEuro)),
                                        ])
                                    })
                            )
                        ]))
            })
    }

    /// The day asked for, the reason and the interpolation's days, as JSON keys.
    var provenanceJSON: [(String, JSONText)] {
        [
            ("day", .string(day.description)), ("asked", asked.map { .string($0.description) } ?? .null),
            ("reason", reason.map { .string($0) } ?? .null),
            ("interpolatedBetween", interpolatedBetween.map { .array($0.map { .string($0.description) }) } ?? .null),
        ]
    }

    public var json: JSONText {
        .object(
            [("currency", .string(currency)), ("base", .string(base)), ("rate", .raw(NumberText.machineRate(self)))]
                + provenanceJSON + [("legs", legsJSON)])
    }

    /// The CSV columns of a rate.
    static let csvHeader = ["currency", "base", "rate", "day", "asked", "reason"]

    /// The rate's CSV fields, in ``csvHeader``'s order.
    var csvFields: [String] {
        [currency, base, NumberText.machineRate(self), "\(day)", asked.map { "\($0)" } ?? "", reason ?? ""]
    }

    public var csvRows: [[String]] { [Self.csvHeader, csvFields] }
}
