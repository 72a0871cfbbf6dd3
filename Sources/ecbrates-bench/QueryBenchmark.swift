import ECBRates
import EurofxrefFeed
import Foundation
import ManagedStore

/// Rate lookups on a warm viewContext, in process: the time of one `RateQueries.rate` call on
/// the main queue (median and 90th percentile over many days), and of one currency's whole
/// series.
enum QueryBenchmark {
    @MainActor
    static func run(storeURL: URL, lookups: Int) throws -> [String: Double] {
        let store = try RatesStore(url: storeURL, readOnly: true)
        let view = store.viewContext
        return try view.performAndWait { () throws -> [String: Double] in
            let queries = RateQueries(context: view)
            let coldStart = ContinuousClock.now
            let (first, last) = try queries.bounds()
            let coldSeries = try queries.series(["USD"], from: first, to: last)
            let coldSeconds = (ContinuousClock.now - coldStart).seconds
            view.reset()
            let span = last.days(since: first)
            // Every day of the range in a fixed, scattered order: weekdays and weekends, so that
            // some lookups fall back to an earlier day.
            let days = (0..<lookups).map { first.adding(days: ($0 * 7919) % (span + 1)) }
            for day in days.prefix(200) { _ = try queries.rate("USD", on: day) }  // warm-up
            var samples: [Double] = []
            samples.reserveCapacity(days.count)
            for day in days {
                let start = ContinuousClock.now
                _ = try queries.rate("USD", on: day)
                samples.append((ContinuousClock.now - start).seconds)
            }
            samples.sort()
            let seriesStart = ContinuousClock.now
            let series = try queries.series(["USD"], from: first, to: last)
            let seriesSeconds = (ContinuousClock.now - seriesStart).seconds
            // The completeness check a range query makes (the stored days against the calendar).
            let checkStart = ContinuousClock.now
            _ = try queries.missingDays(from: first, to: last)
            let checkSeconds = (ContinuousClock.now - checkStart).seconds
            return [
                "lookups": Double(samples.count),
                "lookup_median_microseconds": samples[samples.count / 2] * 1e6,
                "lookup_p90_microseconds": samples[samples.count * 9 / 10] * 1e6,
                "series_rows": Double(series.rows.count), "series_seconds": seriesSeconds,
                "range_check_seconds": checkSeconds,
                "cold_series_seconds": coldSeconds, "cold_series_rows": Double(coldSeries.rows.count),
            ]
        }
    }
}
