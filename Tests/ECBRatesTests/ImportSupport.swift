import ECBRatesCLI
import EurofxrefFeed
import Foundation
import TestSupport

/// Runs an `ecbrates` command in this process, on the store `store`, capturing what it prints.
func ecbrates(_ arguments: [String], store: URL, environment: [String: String] = [:]) async -> CommandRun {
    let console = Console.capturing()
    let status = await CLI.main(arguments + ["--store", store.path], environment: environment, console: console)
    let (out, err) = console.capturedOutput
    return CommandRun(status: status, out: out, err: err)
}

/// Every stored rate as `YYYY-MM-DD CUR rate`, sorted, read with the sqlite3 tool (not through
/// ecbrates, so that a test checks the store by other means than the code under test).
func storedRates(_ store: URL) throws -> [String] {
    try sqlite3Lines(
        store,
        "SELECT date(date, 'unixepoch') || ' ' || currencySymbol || ' ' || exchangeRate FROM Eurofxrefhist ORDER BY 1")
}

/// The lines the sqlite3 shell prints for `sql` on `store`, opened read-only.
func sqlite3Lines(_ store: URL, _ sql: String) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // A busy timeout: an in-process store may still be closing (its last checkpoint) when this runs.
    process.arguments = ["sqlite3", "-readonly", "-cmd", ".timeout 10000", store.path, sql]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
}

/// The rates of an ECB file as `YYYY-MM-DD CUR rate` with the rate in its shortest exact form,
/// parsed here with a regular expression (not with the reader under test).
func fileRates(_ url: URL) throws -> [String] {
    let text = try String(contentsOf: url, encoding: .utf8)
    var rates: [String] = []
    var day = ""
    for match in text.matches(of: /time=['"](\d{4}-\d\d-\d\d)['"]|currency=['"]([A-Z]{3})['"] rate=['"]([0-9.]+)['"]/) {
        if let time = match.1 {
            day = String(time)
        } else if let currency = match.2, let rate = match.3 {
            rates.append("\(day) \(currency) \(Decimal(string: String(rate))!)")
        }
    }
    return rates.sorted()
}

/// A copy of `source` with the text `old` replaced by `new`, in `directory`.
func edited(
    _ source: URL, replacing old: String, with new: String, in directory: TemporaryDirectory, name: String
) throws -> URL {
    let text = try String(contentsOf: source, encoding: .utf8)
    precondition(text.contains(old), "the fixture has no \(old)")
    let url = directory.file(name)
    try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    return url
}
