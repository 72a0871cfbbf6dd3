/// What a coordinator-backed context asks its store to write in one save.
struct SaveRequest: Sendable {
    struct Insert: Sendable {
        /// The object's ID: temporary, or permanent when obtained before the save.
        let objectID: ManagedObjectID
        let values: [AttributeValue]
    }

    struct Update: Sendable {
        let objectID: ManagedObjectID
        let values: [AttributeValue]
        /// The values the object was read with: what "changed" means, per attribute.
        let committed: [AttributeValue]
        let version: Int64
        /// The many-to-many relationships whose links changed, for the history.
        var changedRelationships: [String] = []
    }

    /// A link (or unlink) of two objects in a many-to-many relationship's join table.
    struct Link: Sendable {
        let table: JoinTable
        /// The objects on the table's primary side and on the other (temporary IDs are
        /// resolved through the save's insertions).
        let owner: ManagedObjectID
        let member: ManagedObjectID
        let linked: Bool
    }

    struct Delete: Sendable {
        let objectID: ManagedObjectID
        let version: Int64
    }

    var inserts: [Insert] = []
    var updates: [Update] = []
    var deletes: [Delete] = []
    var links: [Link] = []
    var mergePolicy: MergePolicy = .error
    /// The saving context's ``ManagedObjectContext/transactionAuthor`` and name, for the history.
    var transactionAuthor: String?
    var contextName: String?
}

/// What a save did, for the saving context and for the contexts that merge its notification.
struct SaveOutcome: Sendable {
    /// What became of an object that took part in the save.
    enum Fate: Sendable {
        /// The object was inserted as a new row: ``SaveOutcome/insertedRows``[`row`]. (Not
        /// "the next row": an insert whose row a later insert of the same save took over by a
        /// uniqueness conflict becomes `.superseded`, and its row stays, with the later values.)
        case inserted(row: Int)
        /// The object stands for this existing row now, with these values at this version.
        case row(RowSnapshot)
        /// The object's row is gone (deleted by this save, or by another that won).
        case deleted
        /// Another object of the same save stands for the row the object would have had
        /// (uniqueness constraint resolved by the merge policy); the object leaves its context.
        case superseded(by: ManagedObjectID)
    }

    /// The fate of each insert, update and deletion, in the request's order.
    var insertFates: [Fate] = []
    var updateFates: [Fate] = []
    var deleteFates: [Fate] = []
    /// Rows this save created.
    var insertedRows: [RowSnapshot] = []
    /// Rows this save changed.
    var updatedRows: [RowSnapshot] = []
    /// Rows this save removed.
    var deletedIDs: [ManagedObjectID] = []
    /// The temporary ID each of `insertedRows` had (nil for an ID obtained before the save).
    var insertedTemporaryIDs: [ManagedObjectID?] = []
    /// Other objects that took a permanent ID by a conflict resolution: (temporary, permanent).
    var adoptedIDs: [(temporary: ManagedObjectID, permanent: ManagedObjectID)] = []
}
