import EurofxrefFeed
import Foundation
import ManagedStore

/// Follows a store as imports in any process commit to it, Core Data's way, and says what
/// each brought: every rate it inserted (grouped by day), and every correction of a stored rate,
/// each with the history token of the transaction that made it, so that resuming after any
/// event's token gives exactly the events after it.
///
/// The pieces: the store's coordinator posts remote change notifications
/// (``RatesStore/init(url:readOnly:mergingIntoViewContext:observingOtherProcesses:)``); a
/// ``RemoteChangeMerger`` merges the history after each into the view context; two fetched
/// results controllers on the view context (the rates of the imports running or finishing after
/// the watch began, in batches of IDs and sort keys, and the corrections) report what came in; and each row they report is told with the token of the
/// history transaction that inserted it. Everything runs on the view context's queue.
///
/// ```swift
/// let store = try RatesStore(url: url, readOnly: true, observingOtherProcesses: true)
/// let watcher = RateWatcher(store: store, currencies: ["USD"], onError: { print($0) }) { event, token in print(event) }
/// try await store.viewContext.perform { try watcher.start(since: nil) }
/// ```
///
/// What is reported depends on the transactions alone, never on when the watch began: rates an
/// import adds to older days (a backfill) are reported like new days, and rates the ECB adds to a
/// day already reported (another currency) are reported on their own.
///
/// `@unchecked Sendable`: every stored property but the immutable ones is touched only on the
/// view context's queue (``start(since:)``, ``stop()``, ``token``, the controllers' delegate
/// calls and the merger's reports all run there).
public final class RateWatcher: @unchecked Sendable {
    /// Something the watcher saw.
    public enum Event: Sendable, Equatable {
        /// New rates of a day (of the currencies watched), in currency order: the newest day
        /// when the watch begins, then the rates each import brings.
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
    private let onError: @Sendable (any Error) -> Void
    private var ratesController: FetchedResultsController<Eurofxrefhist>?
    private var correctionsController: FetchedResultsController<RateCorrection>?
    private let ratesDelegate = Collector<Eurofxrefhist>()
    private let correctionsDelegate = Collector<RateCorrection>()
    private var merger: RemoteChangeMerger?
    private var stopped = false
    /// Rows the controllers reported whose transaction has not been merged yet (a refetch reads
    /// the store live, so it may see a row before the history that brings it is fetched).
    private var pendingRates: [ManagedObjectID: (day: CalendarDay, currency: String, rate: Decimal)] = [:]
    private var pendingCorrections = Set<ManagedObjectID>()

    /// A watcher of `store` (opened with `observingOtherProcesses`), for `currencies` (nil: all),
    /// calling `emit` on the view context's queue with each event and the history token to
    /// resume after it, and `onError` when it cannot go on (it then reports nothing more).
    public init(
        store: RatesStore, currencies: Set<String>? = nil, onError: @escaping @Sendable (any Error) -> Void,
        emit: @escaping @Sendable (Event, PersistentHistoryToken) -> Void
    ) {
        self.store = store
        self.currencies = currencies
        self.onError = onError
        self.emit = emit
    }

    /// Begins: reports the newest day's rates (or, with `since`, what came after it), then
    /// follows the store. Call on the view context's queue. Everything before going live is read
    /// from one query generation, so that nothing committed meanwhile is missed or told twice.
    /// Throws ``ManagedStoreError/persistentHistoryTokenExpired(token:oldestKept:)`` for a token
    /// older than the history kept.
    public func start(since: Start?) throws {
        let view = store.viewContext
        // Taken before the generation: an import that finishes after it, finishes after this.
        let began = Date()
        try view.setQueryGenerationFrom(.current)
        defer { try? view.setQueryGenerationFrom(.unpinned) }
        guard let now = view.queryGenerationToken?.persistentHistoryToken else {
            throw ManagedStoreError.queryGenerationUnavailable(reason: "the store's history could not be read")
        }
        let queries = RateQueries(context: view)
        var any = FetchRequest<Eurofxrefhist>()
        any.fetchLimit = 1
        let newest = try view.count(for: any) == 0 ? nil : try queries.bounds().last
        // Told once the watch is live (so that a first line means "watching").
        var opening: LatestRates?
        switch since {
        case nil:
            if let newest { opening = try rates(on: [newest]).first }
        case .day(let day):
            let after = day
            let days = try view.fetchValues(
                FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date > after }), \.date)
            for rates in try rates(on: Set(days).sorted()) { emit(.rates(rates), now) }
            let end = day.adding(days: 1).date
            for correction in try queries.corrections().reversed()
            where correction.correctedAt >= end && watches(correction.currency) {
                emit(.correction(correction), now)
            }
        case .token(let token):
            guard token <= now else { throw ManagedStoreError.historyTokenAfterHistory(token: token, current: now) }
            try replay(after: token)
        }

        // Live: the rates of the imports running now or finishing later (every rate inserted from
        // now on is one of theirs; the store's older rates stay out of the controller, which
        // fetches again at each merge), held as IDs and sort keys, objects a batch at a time;
        // and the corrections.
        let never = Date.distantFuture
        var recent = FetchRequest<Eurofxrefhist>(
            predicate: #Predicate { $0.importRun != nil && ($0.importRun?.finishedAt ?? never) > began },
            sortBy: [SortDescriptor(\.date), SortDescriptor(\.currencySymbol)])
        recent.fetchBatchSize = 200
        let rates = FetchedResultsController(
            fetchRequest: recent, managedObjectContext: view, sectionNameKeyPath: \.date)
        rates.delegate = ratesDelegate
        try rates.performFetch()
        ratesController = rates
        let corrections = FetchedResultsController(
            fetchRequest: FetchRequest<RateCorrection>(sortBy: [SortDescriptor(\.newRate)]), managedObjectContext: view)
        corrections.delegate = correctionsDelegate
        try corrections.performFetch()
        correctionsController = corrections
        merger = try RemoteChangeMerger(
            store: store, after: now,
            onError: { [weak self] error in
                self?.fail(error)
            },
            onMerge: { [weak self] transactions in
                self?.report(transactions)
            })
        if let opening { emit(.rates(opening), now) }
    }

    /// Stops following the store: nothing is reported after it returns. Call on the view
    /// context's queue.
    public func stop() {
        stopped = true
        merger = nil
        ratesController = nil
        correctionsController = nil
    }

    /// The token after the last transaction merged (call on the view context's queue).
    public var token: PersistentHistoryToken? { merger?.token }

    private func watches(_ currency: String) -> Bool { currencies?.contains(currency) ?? true }

    private func fail(_ error: any Error) {
        guard !stopped else { return }
        stop()
        onError(error)
    }

    /// The rates of `days`, of the currencies watched (days without any left out).
    private func rates(on days: [CalendarDay]) throws -> [LatestRates] {
        guard !days.isEmpty else { return [] }
        let wanted = days
        var byDay: [CalendarDay: [(currency: String, rate: Decimal)]] = [:]
        for (day, currency, rate) in try store.viewContext.fetchValues(
            FetchRequest<Eurofxrefhist>(
                predicate: #Predicate { wanted.contains($0.date) }, sortBy: [SortDescriptor(\.currencySymbol)]),
            \.date, \.currencySymbol, \.exchangeRate) where watches(currency)
        {
            byDay[day, default: []].append((currency, rate))
        }
        return days.compactMap { day in byDay[day].map { LatestRates(day: day, rates: $0, missing: []) } }
    }

    /// Reports what the transactions after `token` brought, each with its own token: the rates
    /// they inserted, with the values they had then, and the corrections.
    ///
    /// A rate holds its newest value; the history records that it was inserted, not with what
    /// (Core Data's history changes carry no values for an insert). Its value when inserted is
    /// the old value of its first correction, which came in a later transaction (so among those
    /// replayed), or its value now when it has none.
    private func replay(after token: PersistentHistoryToken) throws {
        let view = store.viewContext
        let transactions =
            try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: token)).transactions ?? []
        let insertedRates = transactions.flatMap { $0.changes ?? [] }.filter {
            $0.changeType == .insert && $0.changedObjectID.entity.name == RatesModel.rate.name
        }
        let insertedValue = try insertedValues(of: Set(insertedRates.map(\.changedObjectID)))
        for transaction in transactions {
            var rates: [(day: CalendarDay, currency: String, rate: Decimal)] = []
            var corrections: [ManagedObjectID] = []
            for change in transaction.changes ?? [] where change.changeType == .insert {
                switch change.changedObjectID.entity.name {
                case RatesModel.rate.name:
                    // A rate deleted since is not told.
                    guard let rate = try? view.existingObject(with: change.changedObjectID) as? Eurofxrefhist else {
                        continue
                    }
                    rates.append((rate.date, rate.currencySymbol, insertedValue[rate.objectID] ?? rate.exchangeRate))
                case RatesModel.correction.name:
                    corrections.append(change.changedObjectID)
                default:
                    continue
                }
            }
            try tell(rates: rates, corrections: corrections, token: transaction.token)
        }
    }

    /// The value each of the rates `ids` came with, where it differs from its value now: the old
    /// value of its first correction (by the correcting run's start). Core Data's history
    /// records that a row was inserted, not with what; a rate told as inserted was corrected
    /// only after, so its first correction's old value is what it came with. Corrections are
    /// rare (the ECB's whole history has none): they are read at once, when any are stored.
    private func insertedValues(of ids: Set<ManagedObjectID>) throws -> [ManagedObjectID: Decimal] {
        guard !ids.isEmpty else { return [:] }
        var first: [ManagedObjectID: (when: Date, old: Decimal)] = [:]
        for correction in try store.viewContext.fetch(FetchRequest<RateCorrection>()) {
            guard let rate = correction.rate?.objectID, ids.contains(rate) else { continue }
            let when = correction.run?.startedAt ?? .distantFuture
            if first[rate].map({ when < $0.when }) ?? true { first[rate] = (when, correction.oldRate) }
        }
        return first.mapValues(\.old)
    }

    /// Reports, transaction by transaction, what the controllers collected in the merge of
    /// `transactions`; a row whose transaction is not among them waits for it.
    private func report(_ transactions: [PersistentHistoryTransaction]) {
        guard !stopped else { return }
        for row in ratesDelegate.take() where watches(row.currencySymbol) {
            pendingRates[row.objectID] = (row.date, row.currencySymbol, row.exchangeRate)
        }
        for correction in correctionsDelegate.take() { pendingCorrections.insert(correction.objectID) }
        if let error = ratesController?.trackingError ?? correctionsController?.trackingError {
            fail(error)
            return
        }
        do {
            // A rate is told with the value it came with, whatever came after it.
            let insertedValue = try insertedValues(of: Set(pendingRates.keys))
            for transaction in transactions {
                var rates: [(day: CalendarDay, currency: String, rate: Decimal)] = []
                var corrections: [ManagedObjectID] = []
                for change in transaction.changes ?? [] where change.changeType == .insert {
                    if var row = pendingRates.removeValue(forKey: change.changedObjectID) {
                        row.rate = insertedValue[change.changedObjectID] ?? row.rate
                        rates.append(row)
                    } else if pendingCorrections.remove(change.changedObjectID) != nil {
                        corrections.append(change.changedObjectID)
                    }
                }
                try tell(rates: rates, corrections: corrections, token: transaction.token)
            }
        } catch {
            fail(error)
        }
    }

    /// Emits `rates` (by day, in currency order) and `corrections`, with `token`.
    private func tell(
        rates: [(day: CalendarDay, currency: String, rate: Decimal)], corrections: [ManagedObjectID],
        token: PersistentHistoryToken
    ) throws {
        var byDay: [CalendarDay: [(currency: String, rate: Decimal)]] = [:]
        for row in rates where watches(row.currency) { byDay[row.day, default: []].append((row.currency, row.rate)) }
        for day in byDay.keys.sorted() {
            emit(
                .rates(LatestRates(day: day, rates: byDay[day]!.sorted { $0.currency < $1.currency }, missing: [])),
                token)
        }
        for id in corrections {
            guard let correction = try store.viewContext.existingObject(with: id) as? RateCorrection,
                let record = Self.record(correction), watches(record.currency)
            else { continue }
            emit(.correction(record), token)
        }
    }

    static func record(_ correction: RateCorrection) -> CorrectionRecord? {
        guard let rate = correction.rate else { return nil }
        let run = correction.run
        return CorrectionRecord(
            day: rate.date, currency: rate.currencySymbol, oldRate: correction.oldRate, newRate: correction.newRate,
            correctedAt: run.map { $0.finishedAt ?? $0.startedAt } ?? Date(), source: run?.source ?? "")
    }

    /// Collects the objects a controller reports inserted, until taken.
    private final class Collector<Result: ManagedObject>: FetchedResultsControllerDelegate {
        private var inserted: [Result] = []

        func controller(
            _ controller: FetchedResultsController<Result>, didChange object: Result,
            at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?
        ) {
            if type == .insert { inserted.append(object) }
        }

        func take() -> [Result] {
            defer { inserted = [] }
            return inserted
        }
    }
}
