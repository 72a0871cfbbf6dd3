import Foundation
import TestSupport
import Testing

/// `import --expect-due`, for a timer or cron job: exit 75 (try again later) while the store
/// lacks a business day whose rates are due (the ECB publishes around 16:00 Frankfurt time);
/// exit 0 on a TARGET holiday or before publication, when no new day is due.
@Suite struct ExpectDueTests {
    /// The daily fixture, as published on `day`.
    static func daily(on day: String, in dir: TemporaryDirectory) throws -> URL {
        let xml = try String(contentsOf: FixturePaths.daily, encoding: .utf8)
            .replacingOccurrences(of: "time='2026-09-30'", with: "time='\(day)'")
        let file = dir.file("daily-\(day).xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    static func importing(_ file: URL, store: URL, now: String) throws -> CommandRun {
        try CommandRun.process(
            ["import", file.path, "--expect-due", "--quiet", "--store", store.path], environment: ["ECBRATES_NOW": now])
    }

    @Test func aLateDayIsTryAgainLaterAndAHolidayOrAnEarlyHourIsNot() throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let thursday = try Self.daily(on: "2026-12-24", in: dir)

        // Thursday 24 December, 15:30 in Frankfurt (14:30 UTC): the day's rates are not due
        // yet, so the 23rd would do; the file has the 24th: fine.
        #expect(try Self.importing(thursday, store: store, now: "2026-12-24T14:30:00Z").status == 0)
        // Christmas and Boxing Day (TARGET holidays), then the weekend: nothing new is due.
        for now in ["2026-12-25T17:00:00Z", "2026-12-26T17:00:00Z", "2026-12-27T17:00:00Z"] {
            let run = try Self.importing(thursday, store: store, now: now)
            #expect(run.status == 0 && run.err.isEmpty, "\(now): \(run)")
        }
        // Monday 28 December at 17:30 in Frankfurt: the 28th is due, the file still ends on
        // the 24th (the ECB is late): exit 75, saying so.
        let late = try Self.importing(thursday, store: store, now: "2026-12-28T16:30:00Z")
        #expect(late.status == 75, "\(late)")
        #expect(
            late.err
                == "Error: the rates of 2026-12-28 are due (the ECB publishes around 16:00 Frankfurt time), but the store's newest day is 2026-12-24: the ECB's file does not have them yet (--expect-due); try again later\n",
            "\(late)")
        // What was read is stored all the same: the retry finds the day once it is out.
        let monday = try Self.daily(on: "2026-12-28", in: dir)
        #expect(try Self.importing(monday, store: store, now: "2026-12-28T17:00:00Z").status == 0)
        // Two days late: both named. Without --expect-due, the same import exits 0.
        let behind = try Self.importing(monday, store: store, now: "2026-12-30T16:00:00Z")
        #expect(behind.status == 75, "\(behind)")
        #expect(behind.err.contains("the rates of 2 business days are due, 2026-12-29 to 2026-12-30"), "\(behind)")
        let plain = try CommandRun.process(
            ["import", monday.path, "--quiet", "--store", store.path],
            environment: ["ECBRATES_NOW": "2026-12-30T16:00:00Z"])
        #expect(plain.status == 0, "\(plain)")
    }

    @Test func aDryRunCannotExpectADay() throws {
        let dir = TemporaryDirectory()
        let run = try CommandRun.process(
            ["import", FixturePaths.daily.path, "--dry-run", "--expect-due", "--store", dir.file("r.sqlite").path])
        #expect(run.status == 64 && run.err.hasPrefix("Error: --expect-due checks what the import stored"), "\(run)")
    }
}
