/// The English names (ISO 4217's) of every currency the ECB has quoted, and the euro.
public enum CurrencyNames {
    /// The name of `code`, if the ECB has ever quoted it.
    public static func name(of code: String) -> String? { names[code] }

    private static let names: [String: String] = [
        "AUD": "Australian Dollar", "BGN": "Bulgarian Lev", "BRL": "Brazilian Real", "CAD": "Canadian Dollar",
        "CHF": "Swiss Franc", "CNY": "Chinese Renminbi Yuan", "CYP": "Cypriot Pound", "CZK": "Czech Koruna",
        "DKK": "Danish Krone", "EEK": "Estonian Kroon", "EUR": "Euro", "GBP": "British Pound",
        "HKD": "Hong Kong Dollar", "HRK": "Croatian Kuna", "HUF": "Hungarian Forint", "IDR": "Indonesian Rupiah",
        "ILS": "Israeli New Shekel", "INR": "Indian Rupee", "ISK": "Icelandic Króna", "JPY": "Japanese Yen",
        "KRW": "South Korean Won", "LTL": "Lithuanian Litas", "LVL": "Latvian Lats", "MTL": "Maltese Lira",
        "MXN": "Mexican Peso", "MYR": "Malaysian Ringgit", "NOK": "Norwegian Krone", "NZD": "New Zealand Dollar",
        "PHP": "Philippine Peso", "PLN": "Polish Złoty", "ROL": "Romanian Leu (old)", "RON": "Romanian Leu",
        "RUB": "Russian Ruble", "SEK": "Swedish Krona", "SGD": "Singapore Dollar", "SIT": "Slovenian Tolar",
        "SKK": "Slovak Koruna", "THB": "Thai Baht", "TRL": "Turkish Lira (old)", "TRY": "Turkish Lira",
        "USD": "United States Dollar", "ZAR": "South African Rand",
    ]
}
