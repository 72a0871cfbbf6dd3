import ECBRates
import EurofxrefFeed
import Foundation

/// Comma-separated currency codes, as options and arguments take them.
enum CurrencyCodes {
    /// `usd, JPY` → [USD, JPY]; nil unless every item is three letters.
    static func parse(_ text: String) -> [String]? {
        // Blanks around a code are dropped in plain Swift: Foundation's trimming goes through
        // NSString and UTF-16, a start-up cost for every query that names a currency.
        let codes = text.split(separator: ",", omittingEmptySubsequences: false).map { item in
            var code = item
            while code.first?.isWhitespace == true { code.removeFirst() }
            while code.last?.isWhitespace == true { code.removeLast() }
            return code.uppercased()
        }
        guard !codes.isEmpty, codes.allSatisfy(QuestionField.isCurrencyCode) else {
            return nil
        }
        return codes
    }
}
