import ECBRates
import Foundation

/// A command's error, with how to print it.
struct CommandFailure: Error {
    let error: any Error
    /// The command's format is JSON: the error is printed as a JSON object.
    let errorsAsJSON: Bool
}
