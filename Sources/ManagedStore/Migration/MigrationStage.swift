import Synchronization

/// One stage of a staged migration (Core Data's `NSMigrationStage`): use
/// ``LightweightMigrationStage`` or ``CustomMigrationStage``.
public class MigrationStage: @unchecked Sendable {  // `label` is guarded by `labelState`'s lock
    private let labelState = Mutex<String?>(nil)

    /// What the stage is for, in words (Core Data's `label`), for logs and errors.
    public var label: String? {
        get { labelState.withLock { $0 } }
        set { labelState.withLock { $0 = newValue } }
    }

    init() {}

    /// The model versions the stage goes through, as version checksums, in order.
    var checksums: [String] { [] }
}

/// A stage of model versions each lightweight-migratable to the next (Core Data's
/// `NSLightweightMigrationStage`: "a series of models suitable for lightweight migration").
public final class LightweightMigrationStage: MigrationStage, @unchecked Sendable {  // immutable; `label` as above
    /// The versions' checksums (``ManagedObjectModel/versionChecksum``), in order.
    public let versionChecksums: [String]
    /// Models the stage names that no custom stage names (Core Data finds them in the app's
    /// bundle; ManagedStore has none to look in).
    let references: [ManagedObjectModelReference]

    /// A stage through the model versions with these checksums, in order; their models come from
    /// the manager's other stages (or are the container's model).
    public init(_ checksums: [String]) {
        versionChecksums = checksums
        references = []
    }

    /// A stage through these model versions, in order.
    public init(_ models: [ManagedObjectModelReference]) {
        versionChecksums = models.map(\.versionChecksum)
        references = models
    }

    override var checksums: [String] { versionChecksums }
}

/// A stage between two model versions with handlers that run before and after the lightweight
/// migration between them (Core Data's `NSCustomMigrationStage`: "participate in the migration
/// between two versions of the same model"). The handlers run inside the migration's one SQLite
/// transaction: a handler that throws, or a process that dies, leaves the store as it was.
///
/// ```swift
/// let split = CustomMigrationStage(migratingFrom: v1, to: v2)
/// split.didMigrateHandler = { manager, _ in
///     let context = manager.container!.newBackgroundContext()
///     try context.performAndWait {
///         for person in try context.fetch(FetchRequest<Person>()) { person.lastName = … }
///         try context.save()
///     }
/// }
/// ```
public final class CustomMigrationStage: MigrationStage, @unchecked Sendable {  // handlers guarded by `handlers`' lock
    /// A handler: the manager (whose ``StagedMigrationManager/container`` holds the store) and
    /// this stage.
    public typealias Handler = @Sendable (StagedMigrationManager, CustomMigrationStage) throws -> Void

    /// The version migrated from, and to.
    public let currentModel: ManagedObjectModelReference
    public let nextModel: ManagedObjectModelReference
    private let handlers = Mutex<(will: Handler?, did: Handler?)>((nil, nil))

    /// Runs before the stage's migration, with the store at ``currentModel``: prepare the data
    /// for the change.
    public var willMigrateHandler: Handler? {
        get { handlers.withLock { $0.will } }
        set { handlers.withLock { $0.will = newValue } }
    }

    /// Runs after it, with the store at ``nextModel``: fill in or tidy the data.
    public var didMigrateHandler: Handler? {
        get { handlers.withLock { $0.did } }
        set { handlers.withLock { $0.did = newValue } }
    }

    /// A stage from `currentModel` to `nextModel`.
    public init(migratingFrom currentModel: ManagedObjectModelReference, to nextModel: ManagedObjectModelReference) {
        self.currentModel = currentModel
        self.nextModel = nextModel
    }

    override var checksums: [String] { [currentModel.versionChecksum, nextModel.versionChecksum] }
}

/// A model version and its checksum (Core Data's `NSManagedObjectModelReference`).
public final class ManagedObjectModelReference: Sendable {
    /// The model.
    public let resolvedModel: ManagedObjectModel
    /// Its ``ManagedObjectModel/versionChecksum``.
    public let versionChecksum: String

    /// A reference to `model`, whose checksum must be `versionChecksum` (a mismatch is a
    /// programmer error, and traps naming both).
    public init(model: ManagedObjectModel, versionChecksum: String) {
        precondition(
            model.versionChecksum == versionChecksum,
            "ManagedStore: the model's version checksum is \(model.versionChecksum), not \(versionChecksum)")
        resolvedModel = model
        self.versionChecksum = versionChecksum
    }
}
