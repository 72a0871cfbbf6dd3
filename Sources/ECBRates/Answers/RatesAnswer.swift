/// Several rates against one base: a day's rates, or the currencies asked for.
public struct RatesAnswer: Sendable, Equatable {
    /// What they are quoted against (`EUR`, or another currency).
    public let base: String
    /// The rates, in the order asked for (or by code).
    public let rates: [RateAnswer]

    /// `rates` against `base`.
    public init(base: String, rates: [RateAnswer]) {
        self.base = base
        self.rates = rates
    }
}
