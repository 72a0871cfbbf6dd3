import ECBRates
import EurofxrefFeed
import Foundation

/// `serve --refresh auto`: imports the ECB's rates in the server's own process when they are
/// due (16:00 Frankfurt time on TARGET business days), through the usual import job (its
/// background workers, its lock, so that a cron import and this one never overlap). While the
/// store lacks a day that is due (the ECB late, the network down, another import holding the
/// lock) it tries again after 1, 2, 4, … minutes, at most every 30 minutes, until the day is in.
/// Requests are never held up: they read beside the import, and see each chunk as it commits.
package final class ScheduledRefresh: Sendable {
    /// How it reports: one line per attempt.
    package typealias Log = @Sendable (String) -> Void

    private let store: RatesStore
    private let clock: @Sendable () -> Date
    private let ecbBaseURL: URL
    private let interruption: ImportInterruption
    private let log: Log
    private let firstRetry: Double
    private let longestRetry: Double

    /// A refresh of `store` from `ecbBaseURL` (the ECB's folder, or a mirror), stopped by
    /// `interruption` (mid-import too: the chunks in flight commit whole); `clock` is "now".
    /// `firstRetry` and `longestRetry` bound the back-off, in seconds.
    package init(
        store: RatesStore, clock: @escaping @Sendable () -> Date, ecbBaseURL: URL = FeedSource.ECBFile.ecbBaseURL,
        interruption: ImportInterruption, firstRetry: Double = 60, longestRetry: Double = 1_800, log: @escaping Log
    ) {
        self.store = store
        self.clock = clock
        self.ecbBaseURL = ecbBaseURL
        self.interruption = interruption
        self.firstRetry = firstRetry
        self.longestRetry = longestRetry
        self.log = log
    }

    /// Runs until the interruption is requested or the task is cancelled.
    package func run() async {
        var retry = firstRetry
        while !Task.isCancelled && !interruption.isRequested {
            let due = TargetCalendar.latestDueDay(at: clock())
            if let newest = newestDay(), newest >= due {
                retry = firstRetry
                // Up to date: wait for the next publication (a minute after, as the ECB posts
                // its files over a few seconds).
                var next = due.adding(days: 1)
                while !TargetCalendar.isBusinessDay(next) { next = next.adding(days: 1) }
                let wait = TargetCalendar.publicationTime(of: next).timeIntervalSince(clock()) + 60
                await sleep(max(1, wait))
                continue
            }
            await attempt(due: due)
            if let newest = newestDay(), newest >= due { continue }
            log("refresh: the rates of \(due) are not in the store yet; next try in \(Int(retry)) s\n")
            await sleep(retry)
            retry = min(retry * 2, longestRetry)
        }
    }

    /// One import of the file the store needs (the 90-day file, or the history if it lacks more).
    private func attempt(due: CalendarDay) async {
        var options = ImportOptions()
        options.today = TargetCalendar.today(at: clock())
        let job = ImportJob(
            store: store, sources: [], options: options, ecbBaseURL: ecbBaseURL, interruption: interruption)
        do {
            let reports = try await job.run()
            for line in ImportAnswer(reports: reports).rendered(as: .text).split(separator: "\n") {
                log("refresh: \(line)\n")
            }
        } catch {
            log("refresh: failed: \(FailureText.describe(error))\n")
        }
    }

    private func newestDay() -> CalendarDay? {
        (try? store.readSnapshot(now: clock()) { try $0.status() })?.value.lastDay
    }

    /// Sleeps `seconds`, or less when cancelled or interrupted.
    private func sleep(_ seconds: Double) async {
        let deadline = Date().addingTimeInterval(seconds)
        while !Task.isCancelled && !interruption.isRequested && Date() < deadline {
            try? await Task.sleep(for: .milliseconds(Int(min(1, deadline.timeIntervalSinceNow) * 1_000) + 1))
        }
    }
}
