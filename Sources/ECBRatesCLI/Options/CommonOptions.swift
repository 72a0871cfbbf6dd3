import ECBRates
import EurofxrefFeed
import Foundation

/// The options several commands share that are no question's field, each declared once (a
/// question's are its ``Field`` properties, made into options by ``Asked``).
enum CommonOptions {
    /// `--store <path>`: every command that opens a store takes it.
    static let store = OptionSpec<String>.text(
        "--store", value: "path",
        help:
            "The store (default: $ECBRATES_STORE, else $XDG_DATA_HOME/ecbrates/rates.sqlite, else the system-wide /var/lib/ecbrates/rates.sqlite when only it exists).",
        completion: .file)

    /// `--format <format>`, limited to `allowed` (the first is the default).
    static func format(_ allowed: [OutputFormat]) -> OptionSpec<OutputFormat> {
        let names = allowed.map(\.rawValue)
        let list =
            names.count == 2
            ? names.joined(separator: " or ") : names.dropLast().joined(separator: ", ") + " or " + names.last!
        return .choice("--format", value: "format", allowed: allowed, help: "\(list) (default: \(names[0])).")
    }

    /// `--currencies <codes>`.
    static let currencies = OptionSpec<[CurrencyCode]>.currencies(
        "--currencies", help: "Only these currencies (USD,JPY,…).")
    /// `--output <file>`.
    static let output = OptionSpec<String>.text(
        "--output", value: "file",
        help: "Write to this file (whole, or not at all) instead of standard output; - is standard output.",
        completion: .file)
    /// `--quiet`: nothing on success.
    static let quiet = FlagSpec(
        "--quiet", help: "Print nothing on success (errors still go to standard error); for cron.")
}
