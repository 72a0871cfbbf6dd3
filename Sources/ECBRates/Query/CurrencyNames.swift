/// The English names (ISO 4217's) of every currency the ECB has quoted, and the euro; with
/// their ISO 4217 numeric codes and, for those still in use, their usual symbols.
public enum CurrencyNames {
    /// The name of `code`, if the ECB has ever quoted it.
    public static func name(of code: String) -> String? { names[code] }

    /// The ISO 4217 numeric code of `code` (`"840"` for USD), if the ECB has ever quoted it.
    public static func numericCode(of code: String) -> String? { numericCodes[code] }

    /// The symbol `code` is usually written with (`"$"`), for currencies still in use.
    public static func symbol(of code: String) -> String? { symbols[code] }

    private static let numericCodes: [String: String] = [
        "AUD": "036", "BGN": "975", "BRL": "986", "CAD": "124", "CHF": "756", "CNY": "156", "CYP": "196",
        "CZK": "203", "DKK": "208", "EEK": "233", "EUR": "978", "GBP": "826", "HKD": "344", "HRK": "191",
        "HUF": "348", "IDR": "360", "ILS": "376", "INR": "356", "ISK": "352", "JPY": "392", "KRW": "410",
        "LTL": "440", "LVL": "428", "MTL": "470", "MXN": "484", "MYR": "458", "NOK": "578", "NZD": "554",
        "PHP": "608", "PLN": "985", "ROL": "642", "RON": "946", "RUB": "643", "SEK": "752", "SGD": "702",
        "SIT": "705", "SKK": "703", "THB": "764", "TRL": "792", "TRY": "949", "USD": "840", "ZAR": "710",
    ]

    private static let symbols: [String: String] = [
        "AUD": "$", "BRL": "R$", "CAD": "$", "CHF": "CHF", "CNY": "¥", "CZK": "Kč", "DKK": "kr.", "EUR": "€",
        "GBP": "£", "HKD": "$", "HUF": "Ft", "IDR": "Rp", "ILS": "₪", "INR": "₹", "ISK": "kr", "JPY": "¥",
        "KRW": "₩", "MXN": "$", "MYR": "RM", "NOK": "kr", "NZD": "$", "PHP": "₱", "PLN": "zł", "RON": "lei",
        "SEK": "kr", "SGD": "$", "THB": "฿", "TRY": "₺", "USD": "$", "ZAR": "R",
    ]

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
