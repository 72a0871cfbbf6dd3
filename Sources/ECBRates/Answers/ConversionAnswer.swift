import Foundation

/// An amount converted at a rate.
public struct ConversionAnswer: Sendable, Equatable {
    /// The most decimal places a conversion is asked for (`--precision`, `precision=`).
    public static let maximumPrecision = 20

    /// The amount asked for, in the source currency.
    public let amount: Decimal
    /// The amount in `rate.currency`, computed from the published rates without rounding, then
    /// rounded once (half away from zero) to its minor units or the precision asked for.
    public let result: Decimal
    /// The rate used: units of the target currency per unit of the source.
    public let rate: RateAnswer
    /// Decimal places of `result`.
    public let places: Int
    /// The amount as the asker wrote it (`-12.50`: its trailing zeros kept), for the answer's
    /// text; its exact value when not set.
    public var amountText: String?
    /// Between two currencies the euro replaced: the euro amount the conversion went through,
    /// rounded to three decimals (Regulation (EC) 1103/97, article 4: triangulation).
    public var throughEuro: Decimal?
}
