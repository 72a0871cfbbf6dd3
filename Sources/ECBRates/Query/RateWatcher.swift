import EurofxrefFeed
import Foundation
import ManagedStore

/// Follows a store as imports in any process commit to it, Core Data's way, and says what
/// each brought: every new day's rates, and every correction of a stored rate.
///
/// The pieces: the store's coordinator posts remote change notifications
/// (``RatesStore/init(url:readOnly:mergingIntoViewContext:observingOtherProcesses:)``); a
/// ``RemoteChangeMerger`` merges the history after each into the view context; and two
/// fetched results controllers on the view context (the rates after the newest day shown, and
/// the corrections) report what came in. Everything runs on the view context's queue (the main
/// queue).
///
/// ```swift
/// let store = try RatesStore(url: url, readOnly: true, observingOtherProcesses: true)
/// let watcher = RateWatcher(store: store, currencies: ["USD"]) { event, token in print(event) }
/// try await store.viewContext.perform { try watcher.start(since: nil) }
/// ```
///
/// `@unchecked Sendable`: every stored property but the immutable ones is touched only on the
/// view context's queue (``start(since:)``, the controllers' delegate calls and the merger's
/// reports all run there).
public final class RateWatcher: @unchecked Sendable {
    /// Something the watcher saw.
    public enum Event: Sendable, Equatable {
        /// The rates of a day (of the currencies watched), in currency order: the newest day
        /// when the watch begins, then each day an import brings.
        case rates(LatestRates)
        /// A stored rate the ECB corrected.
        case correction(CorrectionRecord)
    }

    /// Where a watch begins.
    public enum Start: Sendable, Equatable {
        /// After the history token: what the transactions after it brought, then live.
        case token(PersistentHistoryToken)
        /// After the day: every day after it, and the corrections recorded after it ended.
        case day(CalendarDay)
    }

    private let store: RatesStore
    private let currencies: Set<String>?
    private let emit: @Sendable (Event, PersistentHistoryToken) -> Void
    private var ratesController: FetchedResultsController<Eurofxrefhist>?
    private var correctionsController: FetchedResultsController<RateCorrection>?
    private let ratesDelegate = Collector<Eurofxrefhist>()
    private let correctionsDelegate = Collector<RateCorrection>()
    private var merger: RemoteChangeMerger?

    /// A watcher of `store` (opened with `observingOtherProcesses`), for `currencies` (nil: all),
    /// calling `emit` on the view context's queue with each event and the history token to
    /// resume after it.
    public init(store: RatesStore, currencies: Set<String>? = nil, emit: @escaping @Sendable (Event, PersistentHistoryToken) -> Void) {
        self.store = store
        self.currencies = currencies
        self.emit = emit
    }

    /// Begins: reports the newest day's rates (or, with `since`, what came after it), then
    /// follows the store. Call on the view context's queue. Throws
    /// ``ManagedStoreError/persistentHistoryTokenExpired(token:oldestKept:)`` for a token older
    /// than the history kept.
    public func start(since: Start?) throws {
        let view = store.viewContext
        let queries = RateQueries(context: view)
        let coordinator = store.container.persistentStoreCoordinator
        let now = try coordinator.currentPersistentHistoryToken()
        let newest = try? queries.bounds().last
        switch since {
        case nil:
            if let newest { emit(.rates(try rates(of: [newest])[0]), now) }
        case .day(let day):
            let after = day
            let days = try view.fetchValues(FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date > after }), \.date)
            for rates in try rates(of: Set(days).sorted()) { emit(.rates(rates), now) }
            let end = day.adding(days: 1).date
            for correction in try queries.corrections().reversed() where correction.correctedAt >= end && watches(correction.currency) {
                emit(.correction(correction), now)
            }
        case .token(let token):
            try replay(after: token, until: now)
        }

        // New days: the rates after the newest stored now, in days.
        let last = newest ?? CalendarDay.earliest
        let rates = FetchedResultsController(
            fetchRequest: FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date > last },
                                                      sortBy: [SortDescriptor(\.date), SortDescriptor(\.currencySymbol)]),
            managedObjectContext: view, sectionNameKeyPath: \.date)
        rates.delegate = ratesDelegate
        try rates.performFetch()
        ratesController = rates
        let corrections = FetchedResultsController(
            fetchRequest: FetchRequest<RateCorrection>(sortBy: [SortDescriptor(\.newRate)]), managedObjectContext: view)
        corrections.delegate = correctionsDelegate
        try corrections.performFetch()
        correctionsController = corrections
        // What the controllers collect during a merge is reported once the merger knows the
        // token after it.
        merger = try RemoteChangeMerger(store: store, after: now) { [weak self] transactions in
            guard let self, let token = transactions.last?.token else { return }
            self.flush(token: token)
        }
    }

    /// Stops following the store.
    public func stop() {
        merger = nil
        ratesController = nil
        correctionsController = nil
    }

    /// The token after the last change reported.
    public var token: PersistentHistoryToken? { merger?.token }

    private func watches(_ currency: String) -> Bool { currencies?.contains(currency) ?? true }

    /// The rates of `days`, of the currencies watched.
    private func rates(of days: [CalendarDay]) throws -> [LatestRates] {
        guard !days.isEmpty else { return [] }
        let wanted = days
        var byDay: [CalendarDay: [(currency: String, rate: Decimal)]] = [:]
        for (day, currency, rate) in try store.viewContext.fetchValues(
            FetchRequest<Eurofxrefhist>(predicate: #Predicate { wanted.contains($0.date) }, sortBy: [SortDescriptor(\.currencySymbol)]),
            \.date, \.currencySymbol, \.exchangeRate) where watches(currency) {
            byDay[day, default: []].append((currency, rate))
        }
        return days.map { LatestRates(day: $0, rates: byDay[$0] ?? [], missing: []) }
    }

    /// Reports what the transactions after `token` brought (new rates, by day, and corrections).
    private func replay(after token: PersistentHistoryToken, until now: PersistentHistoryToken) throws {
        let view = store.viewContext
        let transactions = try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: token)).transactions ?? []
        for transaction in transactions {
            var days = Set<CalendarDay>()
            var corrections: [CorrectionRecord] = []
            for change in transaction.changes ?? [] where change.changeType == .insert {
                let object = try? view.existingObject(with: change.changedObjectID)
                if let rate = object as? Eurofxrefhist {
                    days.insert(rate.date)
                } else if let correction = object as? RateCorrection, let record = Self.record(correction) {
                    corrections.append(record)
                }
            }
            for rates in try rates(of: days.sorted()) where !rates.rates.isEmpty { emit(.rates(rates), transaction.token) }
            for correction in corrections where watches(correction.currency) { emit(.correction(correction), transaction.token) }
        }
    }

    /// Reports what the controllers collected in the merge that ended at `token`.
    private func flush(token: PersistentHistoryToken) {
        let days = Set(ratesDelegate.take().map(\.date)).sorted()
        if let batches = try? rates(of: days) {
            for rates in batches where !rates.rates.isEmpty { emit(.rates(rates), token) }
        }
        for correction in correctionsDelegate.take() {
            if let record = Self.record(correction), watches(record.currency) { emit(.correction(record), token) }
        }
    }

    static func record(_ correction: RateCorrection) -> CorrectionRecord? {
        guard let rate = correction.rate else { return nil }
        let run = correction.run
        return CorrectionRecord(day: rate.date, currency: rate.currencySymbol, oldRate: correction.oldRate, newRate: correction.newRate,
                                correctedAt: run.map { $0.finishedAt ?? $0.startedAt } ?? Date(), source: run?.source ?? "")
    }

    /// Collects the objects a controller reports inserted, until taken.
    private final class Collector<Result: ManagedObject>: FetchedResultsControllerDelegate {
        private var inserted: [Result] = []

        func controller(_ controller: FetchedResultsController<Result>, didChange object: Result,
                        at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
            if type == .insert { inserted.append(object) }
        }

        func take() -> [Result] {
            defer { inserted = [] }
            return inserted
        }
    }
}
