import Foundation
import Synchronization

extension SQLiteStore {
    // MARK: Persistent history

    /// Throws when the store has recorded history but this coordinator opened it without
    /// tracking: as in Core Data, it is read-only then, so that no change goes unrecorded.
    func checkWritableHistory() throws {
        if case .requiredButOff = history { throw ManagedStoreError.persistentHistoryTrackingRequired(url: url) }
    }

    /// Records a transaction's changes in the history (inside its write transaction) and
    /// purges what is older than the retention.
    func recordHistory(_ entry: HistoryLog.Entry, on connection: SQLiteConnection) throws {
        guard case .tracking(let retentionDays) = history, !entry.isEmpty else { return }
        // The cutoff is taken before the transaction is stamped, so a retention of 0 days
        // keeps the transaction just recorded.
        let cutoff = retentionDays.map { Date().addingTimeInterval(-Double($0) * 86_400) }
        _ = try HistoryLog.record(entry, on: connection)
        if let cutoff { try HistoryLog.delete(before: cutoff, on: connection) }
    }

    /// The token after the last transaction recorded so far.
    func currentHistoryToken() throws -> PersistentHistoryToken {
        try read { connection in
            var exists = historySeen.load(ordering: .relaxed)
            if !exists {
                exists = try HistoryLog.exists(on: connection)
                if exists { historySeen.store(true, ordering: .relaxed) }
            }
            let number = exists ? try HistoryLog.currentTransactionNumber(on: connection) : 0
            return PersistentHistoryToken(transactionNumber: number, storeIdentifier: persistentStore.identifier)
        }
    }

    /// Runs a history request: a fetch on a read connection, a purge in a write transaction.
    func execute(
        _ request: PersistentHistoryChangeRequest, in generation: QueryGeneration? = nil
    ) throws -> PersistentHistoryResult {
        if let token = request.token, token.storeIdentifier != persistentStore.identifier {
            throw ManagedStoreError.foreignHistoryToken(token: token, storeIdentifier: persistentStore.identifier)
        }
        if request.isDeletion {
            let count = try write { connection -> Int in
                guard try HistoryLog.exists(on: connection) else { return 0 }
                switch request.operation {
                case .deleteThroughToken(let token):
                    return try HistoryLog.delete(through: token?.transactionNumber ?? Int64.max, on: connection)
                case .deleteBeforeDate(let date):
                    return try HistoryLog.delete(before: date, on: connection)
                case .fetchAfterToken, .fetchAfterDate, .fetchMatching:
                    preconditionFailure("ManagedStore: a fetch request taken for a purge")
                }
            }
            return request.resultType == .count ? .count(count) : .status(true)
        }
        var matching:
            (
                PersistentHistoryFetchRequest<PersistentHistoryTransaction>?,
                PersistentHistoryFetchRequest<PersistentHistoryChange>?
            )?
        if case .fetchMatching(let transactions, let changes) = request.operation { matching = (transactions, changes) }
        let withChanges =
            (request.resultType != .transactionsOnly && request.resultType != .count
                && request.resultType != .statusOnly)
            || matching?.1 != nil
        var transactions = try read(in: generation) { connection -> [PersistentHistoryTransaction] in
            let selection: HistoryLog.Selection
            switch request.operation {
            case .fetchAfterToken(let token):
                let number = token?.transactionNumber ?? 0
                if try HistoryLog.exists(on: connection) {
                    let pruned = try HistoryLog.prunedThrough(on: connection)
                    if number < pruned, let token {
                        throw ManagedStoreError.persistentHistoryTokenExpired(token: token, oldestKept: pruned + 1)
                    }
                }
                selection = .after(number)
            case .fetchAfterDate(let date):
                selection = .afterDate(date)
            case .fetchMatching:
                selection = .after(0)
            case .deleteThroughToken, .deleteBeforeDate:
                preconditionFailure("ManagedStore: a purge taken for a fetch")
            }
            return try HistoryLog.transactions(
                selection, withChanges: withChanges, on: connection, store: persistentStore, model: model)
        }
        if let (transactionFetch, changeFetch) = matching {
            transactions = try Self.matching(transactions, transactionFetch, changeFetch)
        }
        switch request.resultType {
        case .statusOnly: return .status(true)
        case .count: return .count(transactions.count)
        case .transactionsOnly, .transactionsAndChanges: return .transactions(transactions)
        case .changesOnly: return .changes(transactions.flatMap { $0.changes ?? [] })
        case .objectIDs:
            var seen = Set<ManagedObjectID>(), ids: [ManagedObjectID] = []
            for change in transactions.flatMap({ $0.changes ?? [] }) where seen.insert(change.changedObjectID).inserted
            {
                ids.append(change.changedObjectID)
            }
            return .objectIDs(ids)
        }
    }

    /// The transactions the fetch requests select (see ``PersistentHistoryFetchRequest``).
    private static func matching(
        _ transactions: [PersistentHistoryTransaction],
        _ transactionFetch: PersistentHistoryFetchRequest<PersistentHistoryTransaction>?,
        _ changeFetch: PersistentHistoryFetchRequest<PersistentHistoryChange>?
    ) throws -> [PersistentHistoryTransaction] {
        var result: [PersistentHistoryTransaction] = []
        let limit = transactionFetch?.fetchLimit ?? changeFetch?.fetchLimit ?? 0
        for transaction in transactions {
            if let predicate = transactionFetch?.predicate, try !predicate.evaluate(transaction) { continue }
            if let changeFetch {
                var kept: [PersistentHistoryChange] = []
                for change in transaction.changes ?? [] where try changeFetch.predicate?.evaluate(change) ?? true {
                    kept.append(change)
                }
                if kept.isEmpty { continue }
                result.append(transaction.with(changes: kept))
            } else {
                result.append(transaction)
            }
            if limit > 0 && result.count == limit { break }
        }
        return result
    }
}
