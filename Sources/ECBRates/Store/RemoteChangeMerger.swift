import Foundation
import ManagedStore
import Synchronization

/// Brings other processes' commits (a cron job's import, another shell's) into a store's view
/// context, Core Data's way: on each remote change notification, it fetches the persistent
/// history after the last token it merged, merges the transactions into the view context as one
/// save (what `objectIDNotification()` gives, for all of them), and hands them to `onMerge`, on
/// the view context's queue. The view context's objectsDidChange notifications (and any fetched results
/// controller on it) then follow other processes as they follow local saves.
///
/// ```swift
/// let store = try RatesStore(url: url, readOnly: true, observingOtherProcesses: true)
/// let merger = try RemoteChangeMerger(store: store) { transactions in print(transactions.count, "merged") }
/// ```
///
/// Every transaction is merged, this process's own too: those reached the view context already
/// (by its automatic merge), and merging a change again changes nothing. (Telling them apart by
/// process ID would drop another process's changes wherever two processes share an ID, as in two
/// containers sharing a volume.) If the history after the last token was purged meanwhile (the
/// process slept past ``RatesStore/historyRetentionDays``), the view context is reset, so that
/// everything is fetched again, the token moves to now, and `onError` is told
/// (``ManagedStore/ManagedStoreError/persistentHistoryTokenExpired(token:oldestKept:)``): what
/// changed in between cannot be reported.
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
    public init(
        store: RatesStore, after token: PersistentHistoryToken? = nil,
        onError: @escaping @Sendable (any Error) -> Void = { _ in },
        onMerge: @escaping @Sendable ([PersistentHistoryTransaction]) -> Void
    ) throws {
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
            transactions =
                try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: after)).transactions ?? []
        } catch let error as ManagedStoreError {
            if case .persistentHistoryTokenExpired = error {
                view.reset()
                if let now = try? store.container.persistentStoreCoordinator.currentPersistentHistoryToken() {
                    lastToken.withLock { $0 = now }
                }
            }
            onError(error)
            return
        } catch {
            onError(error)
            return
        }
        guard let last = transactions.last else { return }
        // One merge for all of them (one objectsDidChange, one refetch of any fetched results
        // controller, however many chunks an import committed since the last look).
        view.mergeChanges(fromContextDidSave: ContextSaveChanges(merging: transactions))
        lastToken.withLock { $0 = last.token }
        onMerge(transactions)
    }
}
