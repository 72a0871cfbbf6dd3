import ECBRatesServer
import Foundation
import TestSupport
import Testing

/// `convert --input` on invoice files as European spreadsheets write them (issue 35, 6): fields
/// separated by semicolons or tabs, found in the header and said; amounts with grouping and
/// decimal separators read when their format is named, and refused as ambiguous, by line and
/// column, when it is not.
@Suite struct EuropeanCSVTests {
    /// The property, against the independent oracle (`batch_formats_check.py`: Python's csv,
    /// decimal and fractions, `scripts/rate_oracle.py`): seeded random files in the three
    /// delimiters and the number formats, some with a bad amount. `ECBRATES_SEED` rebuilds a
    /// failure; `ECBRATES_FORMAT_CASES` runs more.
    @Test func randomInvoiceFilesInEveryDelimiterAndNumberFormatAgreeWithTheOracle() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["ECBRATES_SEED"] ?? String(Int.random(in: 1...1_000_000))
        let cases = environment["ECBRATES_FORMAT_CASES"] ?? "150"
        let run = try SpawnedProcess.run(
            PythonTools.system,
            [
                FixturePaths.root.appendingPathComponent("Tests/ECBRatesTests/batch_formats_check.py").path,
                CommandRun.executable.path, store.path, FixturePaths.history.path, seed, cases,
            ], timeout: 600)
        #expect(run.status == 0 && run.out.hasPrefix("ok \(cases) cases"), "seed \(seed): \(run.out)\(run.err)")
    }

    /// The exact words: the separator found is said; an ambiguous amount names its line and
    /// column and how to name the format; the output keeps the input's separator, and writes
    /// the rate and the result with the decimal comma named.
    @Test func aSemicolonFileIsSaidAndItsAmountsNeedTheirFormat() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let file = directory.file("rechnungen.csv")
        try "date;amount;from;to;Notiz\n2024-03-29;1.234,56;GBP;JPY;\"Nr. 5; Müller\"\n".write(
            to: file, atomically: true, encoding: .utf8)
        let refused = try CommandRun.process(["convert", "--input", file.path, "--store", store.path])
        #expect(refused.status == 65)
        #expect(
            refused.err
                == "note: \(file.path) is read as semicolon-separated (so its header names date, amount, from and to); --delimiter chooses another\nError: \(file.path):2: amount \"1.234,56\" (column 2) is ambiguous: its comma may be a decimal comma or a thousands separator; name the number format with --number-format 1,234.56 or --number-format 1.234,56 (or 1'234.56, 1234,56)\n"
        )
        let converted = try CommandRun.process([
            "convert", "--input", file.path, "--store", store.path, "--number-format", "1.234,56",
        ])
        #expect(converted.status == 0, "\(converted)")
        // 1234.56 GBP in yen on Good Friday 2024: the Thursday's rates, 163.45 / 0.8551 JPY per
        // GBP (Python's decimal: 191.147234241609168518…, 20 digits; 235982.9… rounds to 235983).
        #expect(
            converted.out
                == "date;amount;from;to;Notiz;rate;rate_day;result\n2024-03-29;1.234,56;GBP;JPY;\"Nr. 5; Müller\";191,14723424160916852;2024-03-28;235983\n",
            "\(converted.out)")
        let usage = try CommandRun.process(["convert", "100", "USD", "EUR", "--number-format", "1.234,56"])
        #expect(usage.status == 64 && usage.err.hasPrefix("Error: '--number-format <format>' needs '--input <file>'"))
    }

    /// `POST /api/convert` reads the same files: the separator from the header (or
    /// `delimiter=`), the amounts by `number_format=`, its advice in its own spelling.
    @Test func theBatchEndpointReadsThemToo() async throws {
        let harness = try await ServiceHarness()
        let body = "date\tamount\tfrom\tto\n2024-03-28\t1'234.50\tCHF\tEUR\n"
        let refused = try harness.request("/api/convert", method: "POST", body: body)
        #expect(refused.status == 422)
        #expect(ServiceHarness.text(refused).contains("name the number format with number_format=1,234.56"))
        let answer = try harness.request("/api/convert?number_format=1'234.50", method: "POST", body: body)
        #expect(answer.status == 400, "not a format the field knows: \(ServiceHarness.text(answer))")
        let converted = try harness.request("/api/convert?number_format=1'234.56", method: "POST", body: body)
        #expect(converted.status == 200, "\(ServiceHarness.text(converted))")
        // 1 / 0.9766 CHF per euro (Python's decimal: 1.023960679909891460…; 1234.50 × it = 1264.0805…).
        #expect(
            ServiceHarness.text(converted)
                == "date\tamount\tfrom\tto\trate\trate_day\tresult\n2024-03-28\t1'234.50\tCHF\tEUR\t1.0239606799098914602\t2024-03-28\t1264.08\n"
        )
    }
}
