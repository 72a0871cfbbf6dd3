/// Decimal places of currency amounts (ISO 4217 minor units): 2 unless listed.
///
/// Not a list of the currencies there are (those come from the data): only the exceptions to
/// two decimal places among the currencies the ECB has ever quoted.
enum MinorUnits {
    static let exceptions: [String: Int] = ["JPY": 0, "KRW": 0, "ISK": 0, "TRL": 0]

    static func places(for currency: String) -> Int {
        exceptions[currency] ?? EuroConversionRate.of(currency)?.places ?? 2
    }
}
