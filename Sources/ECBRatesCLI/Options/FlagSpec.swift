import ECBRates
import EurofxrefFeed
import Foundation

/// What a flag (an option without a value, `--dry-run`) is: its name and help.
struct FlagSpec: Sendable {
    /// `--dry-run`.
    let name: String
    /// The help text.
    let help: String

    init(_ name: String, help: String) {
        self.name = name
        self.help = help
    }
}
