/// The currencies a store holds, by code.
public struct CurrencyList: Sendable, Equatable {
    /// One summary per currency.
    public let currencies: [CurrencySummary]

    /// The list of `currencies`.
    public init(_ currencies: [CurrencySummary]) { self.currencies = currencies }
}
