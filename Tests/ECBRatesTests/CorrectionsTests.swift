import ECBRates
import EurofxrefFeed
import Foundation
import TestSupport
import Testing

/// Model version 2 of the rates store: every import run records the rates it stored first and
/// the corrections it made, `ecbrates corrections` lists them, and `--as-of` answers as the store
/// would have then. Expected values are read from the XML files themselves and from the store
/// with the sqlite3 tool, never from ecbrates' own output.
@Suite struct CorrectionsTests {
    /// `(day, currency) -> rate text` of an ECB file in the 90-day layout (one day per line).
    static func rates(in xml: String) -> [String: String] {
        var rates: [String: String] = [:]
        for line in xml.split(separator: "\n") where line.contains("<Cube time=\"") {
            guard let start = line.range(of: "<Cube time=\"") else { continue }
            let day = String(line[start.upperBound...].prefix(10))
            var rest = line[start.upperBound...]
            while let currency = rest.range(of: "currency=\""),
                let rate = rest.range(of: "rate=\"", range: currency.upperBound..<rest.endIndex)
            {
                let code = String(rest[currency.upperBound...].prefix(3))
                let value = rest[rate.upperBound...].prefix { $0 != "\"" }
                rates["\(day) \(code)"] = String(value)
                rest = rest[rate.upperBound...]
            }
        }
        return rates
    }

    /// `xml` with the rates at `changes`' keys replaced by their values.
    static func changing(_ xml: String, _ changes: [String: String], from original: [String: String]) -> String {
        var lines = xml.components(separatedBy: "\n")
        for (key, value) in changes {
            let day = String(key.prefix(10)), code = String(key.suffix(3))
            guard let index = lines.firstIndex(where: { $0.contains("<Cube time=\"\(day)\"") }), let old = original[key]
            else { continue }
            lines[index] = lines[index].replacingOccurrences(
                of: "currency=\"\(code)\" rate=\"\(old)\"", with: "currency=\"\(code)\" rate=\"\(value)\"")
        }
        return lines.joined(separator: "\n")
    }

    /// A value near `text` but different: its last digit moved by `step` (1...8).
    static func nudged(_ text: String, step: Int) -> String {
        var digits = Array(text)
        let last = digits.lastIndex { $0.isNumber }!
        let digit = Int(String(digits[last]))!
        digits[last] = Character(String((digit + step) % 10))
        return String(digits) == text ? text + "1" : String(digits)
    }

    static func moment(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// `day currency rate` with the rate's value in canonical form (`38.440` and `38.44` are one
    /// value: rates compare by value).
    static func canonical(_ line: String) -> String {
        let parts = line.split(separator: " ").map(String.init)
        guard parts.count == 3, let value = Decimal(string: parts[2], locale: Locale(identifier: "en_US_POSIX")) else {
            return line
        }
        return "\(parts[0]) \(parts[1]) \(value)"
    }

    /// `export` of the 90-day file's days for `currencies`, as `day currency rate` lines.
    static func exported(_ store: URL, currencies: [String], asOf: String? = nil) async throws -> [String] {
        let run = await ecbrates(
            ["export", "--from", "2026-07-03", "--to", "2026-09-30", "--currencies", currencies.joined(separator: ",")]
                + (asOf.map { ["--as-of", $0] } ?? []), store: store,
            environment: ["ECBRATES_NOW": "2026-10-01T10:00:00Z"])
        #expect(run.status == 0, "\(run)")
        return run.out.split(separator: "\n").dropFirst().map { canonical($0.replacingOccurrences(of: ",", with: " ")) }
            .sorted()
    }

    /// Import the history, then a 90-day file with seeded random rates changed, then another with
    /// some of them changed again: `corrections` lists each change, and `--as-of` a moment
    /// between the imports gives the values of that moment, for the changed rates and the rest.
    /// On both of the import's methods (`object`, the default, and `batch`).
    @Test(arguments: ["object", "batch"])
    func correctionsAreListedAndAsOfGivesEachMomentsValues(method: String) async throws {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "")
            ?? UInt64(Date().timeIntervalSince1970)
        var random = SeededGenerator(seed: seed)
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let xml = try String(contentsOf: FixturePaths.ninetyDays, encoding: .utf8)
        let original = Self.rates(in: xml)
        let keys = original.keys.sorted()
        var first: [String: String] = [:]
        while first.count < Int.random(in: 2...5, using: &random) {
            let key = keys.randomElement(using: &random)!
            first[key] = Self.nudged(original[key]!, step: Int.random(in: 1...8, using: &random))
        }
        let again = Dictionary(
            uniqueKeysWithValues: first.keys.sorted().prefix(1).map { ($0, Self.nudged(first[$0]!, step: 1)) })
        let currencies = Array(Set(first.keys.map { String($0.suffix(3)) } + ["USD"])).sorted()
        func expected(_ values: [String: String]) -> [String] {
            original.filter { currencies.contains(String($0.key.suffix(3))) }
                .map { Self.canonical("\($0.key.prefix(10)) \($0.key.suffix(3)) \(values[$0.key] ?? $0.value)") }
                .sorted()
        }
        let merged = first.merging(again) { $1 }

        let before = Date()
        try await Task.sleep(for: .milliseconds(20))
        let firstFile = dir.file("first.xml"), secondFile = dir.file("second.xml")
        try Self.changing(xml, first, from: original).write(to: firstFile, atomically: true, encoding: .utf8)
        try Self.changing(Self.changing(xml, first, from: original), again, from: first.merging(original) { a, _ in a })
            .write(to: secondFile, atomically: true, encoding: .utf8)
        let imported = await ecbrates(["import", firstFile.path, "--method", method], store: store)
        #expect(imported.status == 0, "seed \(seed): \(imported)")
        try await Task.sleep(for: .milliseconds(20))
        let between = Date()
        try await Task.sleep(for: .milliseconds(20))
        let reimported = await ecbrates(["import", secondFile.path, "--method", method], store: store)
        #expect(reimported.status == 0, "seed \(seed): \(reimported)")
        try await Task.sleep(for: .milliseconds(20))
        let after = Date()

        // The store itself, read with the sqlite3 tool, holds the newest values.
        let stored = try storedRates(store).filter { line in
            currencies.contains(String(line.split(separator: " ")[1])) && line >= "2026-07-03"
        }
        .map(Self.canonical)
        #expect(stored == expected(merged), "seed \(seed)")

        let listed = await ecbrates(["corrections", "--format", "csv"], store: store)
        #expect(listed.status == 0, "\(listed)")
        func value(_ text: String) -> String { "\(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!)" }
        let rows = listed.out.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: ",").map(String.init)
            return "\(fields[0]) \(fields[1]) \(value(fields[2])) \(value(fields[3]))"
        }
        let newest = Set(
            again.map { "\($0.key.prefix(10)) \($0.key.suffix(3)) \(value(first[$0.key]!)) \(value($0.value))" })
        let older = Set(
            first.map { "\($0.key.prefix(10)) \($0.key.suffix(3)) \(value(original[$0.key]!)) \(value($0.value))" })
        #expect(
            rows.count == newest.count + older.count && Set(rows) == newest.union(older), "seed \(seed): \(listed.out)")
        #expect(Set(rows.prefix(newest.count)) == newest, "the newest corrections come first; seed \(seed)")

        #expect(
            try await Self.exported(store, currencies: currencies, asOf: Self.moment(before)) == expected([:]),
            "seed \(seed)")
        #expect(
            try await Self.exported(store, currencies: currencies, asOf: Self.moment(between)) == expected(first),
            "seed \(seed)")
        #expect(
            try await Self.exported(store, currencies: currencies, asOf: Self.moment(after)) == expected(merged),
            "seed \(seed)")
        #expect(try await Self.exported(store, currencies: currencies) == expected(merged), "seed \(seed)")

        // One rate, answered as of each moment, says so.
        let key = first.keys.sorted()[0]
        let rate = await ecbrates(
            ["rate", String(key.suffix(3)), "--date", String(key.prefix(10)), "--as-of", Self.moment(between)],
            store: store,
            environment: ["ECBRATES_NOW": "2026-10-01T10:00:00Z"])
        // The moment as asked, to the millisecond; a whole second is written without a fraction
        // ("to the millisecond when it has one"): 23:33:03.000Z is shown as 23:33:03Z.
        let asked = Self.moment(between)
        let shown = asked.hasSuffix(".000Z") ? String(asked.dropLast(5)) + "Z" : asked
        #expect(
            rate.out
                == "As of \(shown) (the store as it was then):\n\(key.suffix(3)) \(value(first[key]!)) on \(key.prefix(10))\n",
            "\(rate)")
    }

    @Test func aMomentDuringAnImportIsRefusedSayingWhichImport() async throws {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let runs = try sqlite3Lines(store, "SELECT printf('%.3f %.3f', startedAt, finishedAt), source FROM ImportRun")
        let times = runs[0].split(separator: "|")[0].split(separator: " ").compactMap { Double($0) }
        let middle = Date(timeIntervalSinceReferenceDate: (times[0] + times[1]) / 2)
        let run = await ecbrates(["rate", "USD", "--as-of", Self.moment(middle)], store: store)
        #expect(run.status == 65, "\(run)")
        #expect(
            run.err.hasPrefix(
                "Error: at \(middle.formatted(.iso8601)) an import (\(FixturePaths.history.path)) was storing rates: it ran from "
            ), "\(run.err)")
        #expect(
            run.err.hasSuffix(
                "and when each of its days arrived is not recorded; ask as of a moment before or after it\n"),
            "\(run.err)")
    }

    @Test func aBadAsOfIsAUsageErrorSayingWhatIsExpected() async throws {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let run = await ecbrates(["rate", "USD", "--as-of", "yesterday"], store: store)
        #expect(run.status == 64)
        #expect(
            run.err.hasPrefix(
                "Error: The value 'yesterday' is invalid for '--as-of <time>': expected a day as YYYY-MM-DD or a time as YYYY-MM-DDTHH:MM:SSZ (or with an offset, +02:00)\nUsage: ecbrates rate "
            ), "\(run.err)")
    }

    /// The store written by the release before (model version 1, committed under
    /// Fixtures/stores) opens with this one and is migrated on first use, losing nothing.
    @Test func aModelOneStoreIsMigratedOnFirstUseLosingNothing() async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        try FileManager.default.copyItem(
            at: FixturePaths.fixtures.appendingPathComponent("stores/rates-model1.sqlite"), to: store)
        let runColumns =
            "source, startedAt, finishedAt, outcomeText, processID, days, rates, inserted, corrected, unchanged, errorMessage"
        let ratesBefore = try storedRates(store)
        // The release before counted dates from 1970 (store format 1); this one counts them
        // from 2001, as Core Data does, and upgrades the store: the same moments, 978307200 less.
        let runsBefore = try sqlite3Lines(
            store,
            "SELECT \(runColumns.replacingOccurrences(of: "edAt", with: "edAt - 978307200.0")) FROM ImportRun ORDER BY Z_PK"
        )
        let feedsBefore = try sqlite3Lines(store, "SELECT * FROM FeedState ORDER BY Z_PK")
        #expect(ratesBefore.count == 1856 && runsBefore.count == 2)

        // A query is the first use: it opens the store read-only, which migrates it first.
        let rate = await ecbrates(
            ["rate", "USD", "--date", "2026-09-30"], store: store, environment: ["ECBRATES_NOW": "2026-10-01T10:00:00Z"]
        )
        #expect(rate.status == 0 && rate.out == "USD 1.1356 on 2026-09-30\n", "\(rate)")

        #expect(try storedRates(store) == ratesBefore)
        #expect(try sqlite3Lines(store, "SELECT \(runColumns) FROM ImportRun ORDER BY Z_PK") == runsBefore)
        #expect(try sqlite3Lines(store, "SELECT * FROM FeedState ORDER BY Z_PK") == feedsBefore)
        #expect(try sqlite3Lines(store, "SELECT recordsChanges FROM ImportRun") == ["0", "0"])
        #expect(try sqlite3Lines(store, "SELECT COUNT(*) FROM Eurofxrefhist WHERE importRun IS NULL") == ["1856"])

        let corrections = await ecbrates(["corrections"], store: store)
        #expect(corrections.out == "No corrections recorded.\n", "model 1 kept only counts: \(corrections)")

        // Before the end of its last import, the old store's record cannot say what it held.
        let lastEnd = Date(
            timeIntervalSinceReferenceDate: Double(try sqlite3Lines(store, "SELECT MAX(finishedAt) FROM ImportRun")[0])!
        )
        let early = await ecbrates(["rate", "USD", "--date", "2026-09-30", "--as-of", "2026-10-01"], store: store)
        #expect(early.status == 65)
        #expect(
            early.err
                == "Error: the store cannot say what it held at 2026-10-01T23:59:59Z: it was written by an earlier release, which did not record when rates arrived, so its record starts at \(lastEnd.formatted(.iso8601)) (the end of the last import before the upgrade)\n",
            "\(early)")

        // From then on it records: an import with a correction is listed and undone as of before it.
        let marker = Date()
        try await Task.sleep(for: .milliseconds(20))
        let xml = try String(contentsOf: FixturePaths.daily, encoding: .utf8).replacingOccurrences(
            of: "currency='USD' rate='1.1355'", with: "currency='USD' rate='1.1357'"
        )
        .replacingOccurrences(of: "currency='GBP' rate='0.85463'", with: "currency='GBP' rate='0.85471'")
        let file = dir.file("daily.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let imported = await ecbrates(["import", file.path], store: store)
        #expect(imported.status == 0, "\(imported)")
        let listed = await ecbrates(["corrections", "--format", "csv"], store: store)
        #expect(
            listed.out.hasPrefix("day,currency,old,new,corrected_at,source\n2026-09-30,USD,1.1356,1.1357,"), "\(listed)"
        )
        #expect(listed.out.split(separator: "\n").count == 2, "only USD changed: \(listed)")
        let then = await ecbrates(
            ["rate", "USD", "--date", "2026-09-30", "--as-of", Self.moment(marker), "--format", "json"], store: store,
            environment: ["ECBRATES_NOW": "2026-10-01T10:00:00Z"])
        #expect(
            then.out.hasPrefix(
                "{\"asOf\":\"\(Self.moment(marker))\",\"currency\":\"USD\",\"base\":\"EUR\",\"rate\":1.1356,"),
            "\(then)")
    }
}
