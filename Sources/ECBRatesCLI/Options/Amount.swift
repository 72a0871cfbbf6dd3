import ECBRates
import EurofxrefFeed
import Foundation

/// An amount as typed: its exact value, and its text (trailing zeros kept, for the answer).
struct Amount: Sendable, Equatable {
    let value: Decimal
    let text: String
}
