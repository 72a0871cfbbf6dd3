import ECBRates
import EurofxrefFeed
import Foundation

/// Why a word is not a good argument: the usual expectation, or a more precise one.
struct ArgumentRefusal: Error, Sendable {
    var expected: String?
}
