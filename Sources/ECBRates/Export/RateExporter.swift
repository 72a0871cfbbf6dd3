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
    public enum Layout: String, Sendable, CaseIterable {
        /// `date,currency,rate`, one line per rate, oldest first.
        case long
        /// The ECB's own `eurofxref-hist.csv` layout: `Date,USD,JPY,…,` with a column per
        /// currency, `N/A` where it has no rate, newest day first.
        case wide
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

    /// An exporter of `store`.
    public init(store: RatesStore) {
        self.store = store
    }

    /// Writes the rates from `from` to `to` (default: all) of `currencies` (default: all) through
    /// `write`, which is called on a background queue with pieces of the text; returns the number
    /// of data lines.
    public func export(layout: Layout, from: CalendarDay? = nil, to: CalendarDay? = nil, currencies: [String]? = nil,
                       write: @escaping @Sendable (String) throws -> Void) async throws -> Int {
        let context = store.container.newBackgroundContext()
        context.name = "export"
        return try await context.perform {
            let queries = RateQueries(context: context)
            var codes = try currencies.map { try $0.map(queries.knownCurrency).filter { $0 != "EUR" } }
                ?? queries.currencies().map(\.code)
            if currencies == nil && layout == .wide {
                let position = Dictionary(uniqueKeysWithValues: Self.ecbColumnOrder.enumerated().map { ($1, $0) })
                codes.sort { (position[$0] ?? .max, $0) < (position[$1] ?? .max, $1) }
            }
            let (first, last) = try queries.bounds()
            let start = max(from ?? first, first), end = min(to ?? last, last)
            guard start <= end else { return 0 }
            switch layout {
            case .long:
                try write("date,currency,rate\n")
            case .wide:
                try write("Date," + codes.map { $0 + "," }.joined() + "\n")
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
            let wanted = Set(codes)
            for (windowStart, windowEnd) in windows {
                let lower = windowStart.date, upper = windowEnd.date
                // Values, not managed objects: an export reads every row once.
                let rates: [(day: CalendarDay, code: String, rate: Decimal)] = try context.fetchValues(FetchRequest<Eurofxrefhist>(
                    predicate: #Predicate { $0.date >= lower && $0.date <= upper },
                    sortBy: [SortDescriptor(\.date, order: layout == .wide ? .reverse : .forward), SortDescriptor(\.currencySymbol)]),
                    properties: ["date", "currencySymbol", "exchangeRate"]).compactMap { row in
                        guard case .date(let date) = row[0], case .string(let code) = row[1], case .decimal(let rate) = row[2] else { return nil }
                        return (CalendarDay(date: date), code, rate)
                    }
                var text = ""
                text.reserveCapacity(rates.count * 24)
                switch layout {
                case .long:
                    for rate in rates where wanted.contains(rate.code) {
                        text += "\(rate.day),\(rate.code),\(DecimalText.format(rate.rate))\n"
                        lines += 1
                    }
                case .wide:
                    var index = 0
                    while index < rates.count {
                        let day = rates[index].day
                        var byCode: [String: Decimal] = [:]
                        while index < rates.count && rates[index].day == day {
                            byCode[rates[index].code] = rates[index].rate
                            index += 1
                        }
                        guard codes.contains(where: { byCode[$0] != nil }) else { continue }
                        text += "\(day)," + codes.map { (byCode[$0].map(DecimalText.format) ?? "N/A") + "," }.joined() + "\n"
                        lines += 1
                    }
                }
                try write(text)
            }
            return lines
        }
    }
}
