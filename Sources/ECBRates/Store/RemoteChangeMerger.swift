import Foundation
import ManagedStore
import Synchronization

/// Brings other processes' commits (a cron job's import, another shell's) into a store's view
/// context, Core Data's way: on each remote change notification, it fetches the persistent
/// history after the last token it merged, merges each transaction into the view context as a
/// save (`objectIDNotification()`), and hands the transactions to `onMerge`, on the view
/// context's queue. The view context's objectsDidChange notifications (and any fetched results
/// controller on it) then follow other processes as they follow local saves.
///
/// ```swift
/// let store = try RatesStore(url: url, readOnly: true, observingOtherProcesses: true)
/// let merger = try RemoteChangeMerger(store: store) { transactions in print(transactions.count, "merged") }
/// ```
///
/// This process's own saves are skipped: they reach the view context by its automatic merge.
/// If the history after the last token was purged meanwhile (the process slept past
/// ``RatesStore/historyRetentionDays``), the view context is reset, so that everything is
/// fetched again, and `onMerge` gets an empty list after it.
public final class RemoteChangeMerger: Sendable {
    private let store: RatesStore
    /// The last token merged; read and written on the view context's queue.
    private let lastToken: Mutex<PersistentHistoryToken>
    private let onMerge: @Sendable ([PersistentHistoryTransaction]) -> Void
    private let onError: @Sendable (any Error) -> Void
    /// The notification observer, kept to remove it. `nonisolated(unsafe)`: written once, at
    /// the end of `init`, and read once, in `deinit`; nothing else touches it.
    nonisolated(unsafe) private var observer: (any NSObjectProtocol)?

    /// Starts merging the commits made after `token` (nil: after now) into `store`'s view
    /// context. The store must have been opened with `observingOtherProcesses`.
    public init(store: RatesStore, after token: PersistentHistoryToken? = nil,
                onError: @escaping @Sendable (any Error) -> Void = { _ in },
                onMerge: @escaping @Sendable ([PersistentHistoryTransaction]) -> Void) throws {
        self.store = store
        self.onMerge = onMerge
        self.onError = onError
        let coordinator = store.container.persistentStoreCoordinator
        lastToken = Mutex(try token ?? coordinator.currentPersistentHistoryToken())
        let view = store.viewContext
        let handle = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.persistentStoreRemoteChangeNotification, object: coordinator, queue: nil
        ) { [weak self] _ in
            guard let self else { return }
            view.perform { self.catchUp() }
        }
        observer = handle
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    /// The last token merged.
    public var token: PersistentHistoryToken { lastToken.withLock { $0 } }

    /// Merges what was committed since the last token (call on the view context's queue; the
    /// notifications call it, and a front-end may too, to replay what it missed at once).
    public func catchUp() {
        let view = store.viewContext
        let after = lastToken.withLock { $0 }
        let transactions: [PersistentHistoryTransaction]
        do {
            transactions = try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: after)).transactions ?? []
        } catch ManagedStoreError.persistentHistoryTokenExpired {
            view.reset()
            if let now = try? store.container.persistentStoreCoordinator.currentPersistentHistoryToken() {
                lastToken.withLock { $0 = now }
            }
            onMerge([])
            return
        } catch {
            onError(error)
            return
        }
        guard let last = transactions.last else { return }
        let pid = getpid()
        let others = transactions.filter { $0.processID != pid }
        for transaction in others {
            view.mergeChanges(fromContextDidSave: transaction.contextSaveChanges)
        }
        lastToken.withLock { $0 = last.token }
        if !others.isEmpty { onMerge(others) }
    }
}
