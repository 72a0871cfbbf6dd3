import EurofxrefFeed
import Foundation
import ManagedStore

/// Writes the stored rates as CSV from a background context, a year at a time, so that the main
/// queue stays free and memory stays flat.
///
/// ```swift
/// try await RateExporter(store: store).export(layout: .wide) { text in output.write(text) }
/// ```
public struct RateExporter: Sendable {
    /// The CSV layouts.
    public enum Layout: String, Sendable, CaseIterable, FieldChoice {
        /// `date,currency,rate`, one line per rate, oldest first.
        case long
        /// The ECB's own `eurofxref-hist.csv` layout: `Date,USD,JPY,…,` with a column per
        /// currency, `N/A` where it has no rate, newest day first.
        case wide
    }

    /// What an export wrote.
    public struct Summary: Sendable {
        /// Data lines written (the header not counted).
        public let lines: Int
        /// Business days in the range whose rates are out but not stored (with `partial`).
        public let missing: [CalendarDay]
    }

    /// How lines are written.
    public enum Encoding: String, Sendable, CaseIterable {
        /// CSV with a header line.
        case csv
        /// One JSON object per line (`{"date":…,"currency":…,"rate":…}`, or one per day in the
        /// wide layout), no header.
        case ndjson
    }

    /// The columns of the ECB's `eurofxref-hist.csv`, in its order (the order of its XML files,
    /// discontinued currencies where they stood); a currency it does not list follows them.
    public static let ecbColumnOrder = [
        "USD", "JPY", "BGN", "CYP", "CZK", "DKK", "EEK", "GBP", "HUF", "LTL", "LVL", "MTL", "PLN", "ROL",
        "RON", "SEK", "SIT", "SKK", "CHF", "ISK", "NOK", "HRK", "RUB", "TRL", "TRY", "AUD", "BRL", "CAD",
        "CNY", "HKD", "IDR", "ILS", "INR", "KRW", "MXN", "MYR", "NZD", "PHP", "SGD", "THB", "ZAR",
    ]

    /// The store exported.
    public let store: RatesStore
    /// What time it is, for deciding which days' rates are out.
    private let now: @Sendable () -> Date

    /// An exporter of `store`.
    public init(store: RatesStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.now = now
    }

    /// Writes the rates from `from` to `to` (default: all) of `currencies` (default: all) through
    /// `write`, which is called on a background queue with pieces of the text; returns the number
    /// of data lines and the days the range lacks. A range that reaches business days whose rates
    /// are out but not stored is ``QueryError/incompleteRange(from:to:missing:)`` before anything
    /// is written, unless `partial`.
    ///
    /// Against a `base` other than the euro, each rate is that day's cross rate to 20 significant
    /// digits, the euro is a currency like the others (1 / base), and the base is left out.
    ///
    /// The whole export reads one state of the store (a query generation held for it), however
    /// many imports commit while it runs.
    public func export(
        layout: Layout, encoding: Encoding = .csv, from: CalendarDay? = nil, to: CalendarDay? = nil,
        currencies: [CurrencyCode]? = nil, base: CurrencyCode = .euro, partial: Bool = false,
        write: @escaping @Sendable (String) throws -> Void
    ) async throws -> Summary {
        let now = self.now
        let context = store.container.newBackgroundContext()
        context.name = "export"
        let onFile = store.url.path != "/dev/null"
        return try await context.perform {
            // The export reads a year at a time: pinned to one query generation, every year comes
            // from the same state of the store, whatever an import commits meanwhile.
            if onFile { try context.setQueryGenerationFrom(.current) }
            let queries = RateQueries(context: context, now: now)
            let baseCode = try queries.knownCurrency(base).text
            var codes =
                try currencies.map { try $0.map { try queries.knownCurrency($0).text }.filter { $0 != baseCode } }
                ?? (queries.currencies().map(\.code) + (baseCode == "EUR" ? [] : ["EUR"])).filter { $0 != baseCode }
            if currencies == nil && layout == .wide {
                let position = Dictionary(uniqueKeysWithValues: Self.ecbColumnOrder.enumerated().map { ($1, $0) })
                codes.sort { (position[$0] ?? .max, $0) < (position[$1] ?? .max, $1) }
            }
            let (first, last) = try queries.bounds()
            let missing = try queries.checkComplete(from: from ?? first, to: to ?? last, partial: partial)
            let start = max(from ?? first, first), end = min(to ?? last, last)
            guard start <= end else { return Summary(lines: 0, missing: missing) }
            switch (layout, encoding) {
            case (.long, .csv):
                try write("date,currency,rate\n")
            case (.wide, .csv):
                try write("Date," + codes.map { $0 + "," }.joined() + "\n")
            case (_, .ndjson):
                break
            }
            // A rate as written: exactly as published, or a cross rate to 20 significant digits.
            func text(_ rate: Decimal, base baseRate: Decimal) throws -> String {
                if baseCode == "EUR" { return DecimalText.format(rate) }
                return DecimalText.format(DecimalMath.significant(try DecimalMath.divide(rate, baseRate), digits: 20))
            }
            var lines = 0
            // A year at a time: newest first for the ECB's layout, oldest first for the long one.
            var windows: [(CalendarDay, CalendarDay)] = []
            var windowStart = start
            while windowStart <= end {
                let windowEnd = min(windowStart.adding(days: 365), end)
                windows.append((windowStart, windowEnd))
                windowStart = windowEnd.adding(days: 1)
            }
            if layout == .wide { windows.reverse() }
            for (windowStart, windowEnd) in windows {
                let lower = windowStart, upper = windowEnd
                // Values, not managed objects: an export reads every row once.
                let rates: [(day: CalendarDay, code: String, rate: Decimal)] = try context.fetchValues(
                    FetchRequest<Eurofxrefhist>(
                        predicate: #Predicate { $0.date >= lower && $0.date <= upper },
                        sortBy: [
                            SortDescriptor(\.date, order: layout == .wide ? .reverse : .forward),
                            SortDescriptor(\.currencySymbol),
                        ]),
                    \.date, \.currencySymbol, \.exchangeRate
                ).map { day, code, rate in (day, code, rate) }
                var out = ""
                out.reserveCapacity(rates.count * 24)
                var index = 0
                while index < rates.count {
                    // One day at a time: its rates by code, and the base's.
                    let day = rates[index].day
                    var byCode: [String: Decimal] = ["EUR": 1]
                    while index < rates.count && rates[index].day == day {
                        byCode[rates[index].code] = rates[index].rate
                        index += 1
                    }
                    guard let baseRate = byCode[baseCode] else { continue }
                    let present = codes.filter { byCode[$0] != nil && ($0 != "EUR" || baseCode != "EUR") }
                    guard !present.isEmpty else { continue }
                    switch (layout, encoding) {
                    case (.long, .csv):
                        for code in present.sorted() {
                            out += "\(day),\(code),\(try text(byCode[code]!, base: baseRate))\n"
                            lines += 1
                        }
                    case (.long, .ndjson):
                        for code in present.sorted() {
                            out +=
                                "{\"date\":\"\(day)\",\"currency\":\"\(code)\",\"rate\":\(try text(byCode[code]!, base: baseRate))}\n"
                            lines += 1
                        }
                    case (.wide, .csv):
                        out +=
                            "\(day),"
                            + (try codes.map { code in
                                (try byCode[code].map { try text($0, base: baseRate) } ?? "N/A") + ","
                            }).joined() + "\n"
                        lines += 1
                    case (.wide, .ndjson):
                        out +=
                            "{\"date\":\"\(day)\""
                            + (try codes.map { code in
                                ",\"\(code)\":" + (try byCode[code].map { try text($0, base: baseRate) } ?? "null")
                            }).joined() + "}\n"
                        lines += 1
                    }
                }
                try write(out)
            }
            return Summary(lines: lines, missing: missing)
        }
    }
}
