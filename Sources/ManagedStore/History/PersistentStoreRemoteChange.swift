import Foundation

/// What a ``PersistentStoreCoordinator/persistentStoreRemoteChangeNotification`` says: which
/// store changed, and the persistent history token after the change. `Sendable`: take it out
/// of the notification where it is delivered.
///
/// ```swift
/// NotificationCenter.default.addObserver(forName: PersistentStoreCoordinator.persistentStoreRemoteChangeNotification,
///                                        object: coordinator, queue: nil) { note in
///     guard let change = PersistentStoreRemoteChange(note) else { return }
///     viewContext.perform { mergeHistory(after: lastToken, upTo: change.historyToken) }
/// }
/// ```
public struct PersistentStoreRemoteChange: Sendable {
    /// The store's file.
    public let storeURL: URL
    /// The store's identifier.
    public let storeIdentifier: String
    /// The token after the last transaction committed when the change was seen (transaction
    /// number 0 for a store that records no history).
    public let historyToken: PersistentHistoryToken

    /// The change a remote change notification carries; nil for any other notification.
    public init?(_ notification: Notification) {
        guard notification.name == PersistentStoreCoordinator.persistentStoreRemoteChangeNotification,
            let info = notification.userInfo,
            let url = info[PersistentStoreCoordinator.RemoteChangeKey.storeURL.rawValue] as? URL,
            let identifier = info[PersistentStoreCoordinator.RemoteChangeKey.storeUUID.rawValue] as? String,
            let token = info[PersistentStoreCoordinator.RemoteChangeKey.historyToken.rawValue]
                as? PersistentHistoryToken
        else { return nil }
        self.storeURL = url
        self.storeIdentifier = identifier
        self.historyToken = token
    }
}
