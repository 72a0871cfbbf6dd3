import ECBRatesCLI
import Foundation
import TestSupport
import Testing

/// Bad arguments, over every command: each gets its exact message, the usage of the command it
/// was meant for, and exit 64, before anything is read or written. The store (the full history)
/// is there, so that arguments checked against it (currencies) are checked too.
@Suite struct BadArgumentTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let message: String
        /// The command whose usage follows the message (nil: the top-level usage).
        let command: String?
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let rows: [Row] = [
        // Unknown commands and options.
        Row(arguments: ["--frobnicate"], message: "Unknown option '--frobnicate'", command: nil),
        Row(arguments: ["frobnicate"], message: "Unknown command 'frobnicate'", command: nil),
        Row(arguments: ["improt", "x.xml"], message: "Unknown command 'improt'. Did you mean 'import'?", command: nil),
        Row(arguments: ["help", "nothing"], message: "Unknown command 'nothing'", command: nil),
        Row(arguments: ["rate", "USD", "--bogus"], message: "Unknown option '--bogus'", command: "rate"),
        // Missing and extra arguments, missing values.
        Row(arguments: ["stats"], message: "Missing expected argument '<currency>'", command: "stats"),
        Row(arguments: ["rate", "USD", "EUR"], message: "Unexpected argument 'EUR'", command: "rate"),
        Row(arguments: ["rate", "USD", "--date"], message: "Missing value for '--date <day>'", command: "rate"),
        Row(arguments: ["convert", "100", "USD"], message: "Missing expected argument '<to>'", command: "convert"),
        Row(arguments: ["series"], message: "Missing expected argument '<currencies>'", command: "series"),
        Row(arguments: ["currencies", "extra"], message: "Unexpected argument 'extra'", command: "currencies"),
        Row(arguments: ["validate"], message: "Missing expected argument '<file>'", command: "validate"),
        Row(arguments: ["shell", "extra"], message: "Unexpected argument 'extra'", command: "shell"),
        // Malformed days, amounts, numbers and choices.
        Row(
            arguments: ["rate", "USD", "--date", "2024-13-01"],
            message:
                "The value '2024-13-01' is invalid for '--date <day>': expected a day that exists: a month is 01 to 12, not 13",
            command: "rate"),
        Row(
            arguments: ["rate", "USD", "--date", "yesterday"],
            message: "The value 'yesterday' is invalid for '--date <day>': expected a day as YYYY-MM-DD",
            command: "rate"),
        Row(
            arguments: ["series", "USD", "--from", "2024-02-30"],
            message:
                "The value '2024-02-30' is invalid for '--from <day>': expected a day that exists: February 2024 has 29 days (01 to 29)",
            command: "series"),
        Row(
            arguments: ["convert", "abc", "USD", "JPY"],
            message: "The value 'abc' is invalid for '<amount>': expected a number like 100, 12.50 or -3.10",
            command: "convert"),
        Row(
            arguments: ["convert", "1e5", "USD", "JPY"],
            message: "The value '1e5' is invalid for '<amount>': expected a number like 100, 12.50 or -3.10",
            command: "convert"),
        Row(
            arguments: ["convert", "100", "USD", "JPY", "--precision", "-1"],
            message: "The value '-1' is invalid for '--precision <n>': expected a whole number from 0 to 20",
            command: "convert"),
        Row(
            arguments: ["convert", "100", "USD", "EUR", "--precision", "40"],
            message: "The value '40' is invalid for '--precision <n>': expected a whole number from 0 to 20",
            command: "convert"),
        Row(
            arguments: ["export", "--layout", "wide", "--base", "GBP"],
            message:
                "'--layout wide' is the ECB's layout, rates per euro; with '--base <currency>' use '--layout long'",
            command: "export"),
        Row(
            arguments: ["status", "--max-age-days", "x"],
            message: "The value 'x' is invalid for '--max-age-days <n>': expected a whole number of 0 or more",
            command: "status"),
        Row(
            arguments: ["import", "--workers", "0", "x.xml"],
            message: "The value '0' is invalid for '--workers <n>': expected a whole number of 1 or more",
            command: "import"),
        Row(
            arguments: ["import", "--chunk-days", "0", "x.xml"],
            message: "The value '0' is invalid for '--chunk-days <n>': expected a whole number of 1 or more",
            command: "import"),
        Row(
            arguments: ["import", "--wait", "-1", "x.xml"],
            message: "The value '-1' is invalid for '--wait <seconds>': expected a number of seconds, 0 or more",
            command: "import"),
        Row(
            arguments: ["import", "--currencies", "usd,1", "x.xml"],
            message: "The value 'usd,1' is invalid for '--currencies <codes>': expected currency codes like USD,JPY",
            command: "import"),
        Row(
            arguments: ["rate", "USD", "--fallback", "sideways"],
            message:
                "The value 'sideways' is invalid for '--fallback <rule>': expected one of none, previous, next, nearest, interpolate",
            command: "rate"),
        Row(
            arguments: ["rate", "USD", "--format", "xml"],
            message: "The value 'xml' is invalid for '--format <format>': expected one of text, json, csv, ndjson",
            command: "rate"),
        Row(
            arguments: ["export", "--layout", "tall"],
            message: "The value 'tall' is invalid for '--layout <layout>': expected one of long, wide",
            command: "export"),
        Row(
            arguments: ["import", "--source", "weekly"],
            message: "The value 'weekly' is invalid for '--source <source>': expected one of daily, 90d, hist, auto",
            command: "import"),
        // Options that contradict each other.
        Row(
            arguments: ["series", "USD", "--from", "2024-03-01", "--to", "2024-01-01"],
            message: "'--from <day>' (2024-03-01) is after '--to <day>' (2024-01-01)", command: "series"),
        Row(
            arguments: ["export", "--from", "2024-01-01", "--to", "2023-01-01"],
            message: "'--from <day>' (2024-01-01) is after '--to <day>' (2023-01-01)", command: "export"),
        Row(
            arguments: ["series", "USD", "--chart", "--format", "csv"],
            message: "'--chart' and '--format <format>' cannot be used together", command: "series"),
        Row(
            arguments: ["import", "--source", "90d", "x.xml"],
            message: "give either <source> arguments or '--source <source>', not both", command: "import"),
        // Unknown currencies, with near matches from the store.
        Row(arguments: ["rate", "UDS"], message: "Unknown currency 'UDS'. Did you mean 'USD'?", command: "rate"),
        Row(
            arguments: ["convert", "100", "USD", "JYP"],
            message: "Unknown currency 'JYP'. Did you mean 'CYP' or 'JPY'?", command: "convert"),
        Row(arguments: ["rate", "USD", "--base", "XYZ"], message: "Unknown currency 'XYZ'", command: "rate"),
        Row(
            arguments: ["latest", "--currencies", "USD,GPB"], message: "Unknown currency 'GPB'. Did you mean 'GBP'?",
            command: "latest"),
        Row(
            arguments: ["series", "USD,CHG", "--from", "2024-01-01"],
            message: "Unknown currency 'CHG'. Did you mean 'CHF'?", command: "series"),
    ]

    @Test(arguments: rows)
    func aBadCommandLineGetsItsExactMessageAndExitsSixtyFour(row: Row) async throws {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let before = try Data(contentsOf: store)
        let console = Console.capturing()
        let status = await CLI.main(
            row.arguments, environment: ["ECBRATES_STORE": store.path, "ECBRATES_NOW": "2026-10-01T12:00:00Z"],
            console: console)
        let (out, err) = console.capturedOutput
        #expect(status == 64)
        #expect(out.isEmpty)
        let lines = err.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Error: \(row.message)")
        if let command = row.command {
            #expect(lines.dropFirst().first?.hasPrefix("Usage: ecbrates \(command) ") == true, "\(err)")
            #expect(lines.dropFirst(2).first == "  See 'ecbrates \(command) --help' for more information.", "\(err)")
        } else {
            #expect(lines.dropFirst().first == "Usage: ecbrates <subcommand>", "\(err)")
        }
        #expect(try Data(contentsOf: store) == before, "nothing written")
    }
}
