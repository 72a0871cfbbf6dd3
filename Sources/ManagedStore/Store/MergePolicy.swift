/// How a save resolves conflicts: a uniqueness constraint broken by inserted objects, or a row
/// changed in the store since an updated or deleted object was read (optimistic locking).
///
/// | policy | constraint conflict (insert vs stored row) | row changed since read |
/// |---|---|---|
/// | `.error` | the save throws, listing every conflict | the save throws |
/// | `.mergeByPropertyObjectTrump` | the object takes over the row; its values win | the object's changed attributes win, the store's other changes stay |
/// | `.mergeByPropertyStoreTrump` | the object becomes the stored row, with the store's values | the store's changed attributes win, the object's other changes stay |
/// | `.overwrite` | the object takes over the row with all its values | all the object's values are written |
/// | `.rollback` | the object becomes the stored row; its changes are dropped | the object's changes are dropped |
public enum MergePolicy: Sendable, Hashable, CustomStringConvertible {
    case error
    case mergeByPropertyObjectTrump
    case mergeByPropertyStoreTrump
    case overwrite
    case rollback

    public var description: String {
        switch self {
        case .error: return "error"
        case .mergeByPropertyObjectTrump: return "mergeByPropertyObjectTrump"
        case .mergeByPropertyStoreTrump: return "mergeByPropertyStoreTrump"
        case .overwrite: return "overwrite"
        case .rollback: return "rollback"
        }
    }
}
