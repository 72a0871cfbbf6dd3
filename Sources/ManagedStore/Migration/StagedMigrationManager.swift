import Foundation
import Synchronization

/// Migrates a store through named model versions, stage by stage (Core Data's
/// `NSStagedMigrationManager`: it "contains the individual stages of a migration and applies
/// those stages, in the order you specify"), where an inferred migration alone cannot: a type
/// that changes, an attribute split in two, data to fill in.
///
/// ```swift
/// let v1 = ManagedObjectModelReference(model: modelV1, versionChecksum: modelV1.versionChecksum)
/// let v2 = ManagedObjectModelReference(model: modelV2, versionChecksum: modelV2.versionChecksum)
/// let stage = CustomMigrationStage(migratingFrom: v1, to: v2)
/// stage.didMigrateHandler = { manager, _ in … }
/// var description = PersistentStoreDescription(url: url)
/// description.stagedMigrationManager = StagedMigrationManager([stage, LightweightMigrationStage([v2.versionChecksum, v3checksum])])
/// ```
///
/// When the store's model is not the container's, the manager finds the store's version among
/// its stages (by ``ManagedObjectModel/versionChecksum``) and runs every stage from there, in
/// order: a lightweight one as an inferred migration per version, a custom one as its
/// `willMigrateHandler` (store at the stage's current model), the inferred migration, and its
/// `didMigrateHandler` (store at the next model). The last stage must reach the container's
/// model. All of it is one SQLite transaction, the handlers' saves included: a handler that
/// throws, or a process that dies on the way, leaves the store as it was, whole; other
/// processes see the old store until the new one is complete.
///
/// A handler works on the store through ``container``, with contexts it makes there and uses
/// with `performAndWait` (its work must be done when it returns). The container is valid only
/// while the handler runs.
public final class StagedMigrationManager: Sendable {
    /// The stages, in the order they run.
    public let stages: [MigrationStage]
    private let current = Mutex<PersistentContainer?>(nil)

    /// The container of the migrating store, while a custom stage's handler runs; nil otherwise.
    public var container: PersistentContainer? { current.withLock { $0 } }

    /// A manager of `stages`, run in this order.
    public init(_ stages: [MigrationStage]) {
        self.stages = stages
    }

    private struct Step {
        let from: String
        let to: String
        let stage: MigrationStage
    }

    /// Migrates the store on `connection` from `schemaLines` (its recorded model) to `model`,
    /// inside the caller's write transaction. Returns what changed, in words.
    func migrate(
        on connection: SQLiteConnection, schemaLines: [String], identifier: String, to model: ManagedObjectModel,
        url: URL
    ) throws -> [String] {
        var checksum = EntityDescription.hash(schemaLines)
        let target = model.versionChecksum
        guard checksum != target else { return [] }
        var models: [String: ManagedObjectModel] = [target: model]
        var steps: [Step] = []
        for stage in stages {
            if let custom = stage as? CustomMigrationStage {
                models[custom.currentModel.versionChecksum] = custom.currentModel.resolvedModel
                models[custom.nextModel.versionChecksum] = custom.nextModel.resolvedModel
            } else if let lightweight = stage as? LightweightMigrationStage {
                for reference in lightweight.references { models[reference.versionChecksum] = reference.resolvedModel }
            }
            let checksums = stage.checksums
            steps += zip(checksums, checksums.dropFirst()).map { Step(from: $0, to: $1, stage: stage) }
        }
        func failure(_ stage: MigrationStage?, _ reason: String) -> ManagedStoreError {
            .stagedMigrationFailed(url: url, stage: stage.map(Self.name), reason: reason)
        }
        guard let start = steps.firstIndex(where: { $0.from == checksum }) else {
            let known = Set(steps.map(\.from)).sorted().joined(separator: ", ")
            throw failure(
                nil,
                "its model version (checksum \(checksum)) is not one the stages migrate from (\(known.isEmpty ? "there are no stages" : known))"
            )
        }
        var summary: [String] = []
        var lines = schemaLines
        for step in steps[start...] {
            guard step.from == checksum else {
                throw failure(
                    step.stage, "it starts from version \(step.from), but the stage before ends at \(checksum)")
            }
            guard let next = models[step.to] else {
                throw failure(step.stage, "no stage gives the model of version \(step.to)")
            }
            let custom = step.stage as? CustomMigrationStage
            if let custom, let handler = custom.willMigrateHandler, let before = models[step.from] {
                try run(handler, of: custom, model: before, on: connection, url: url, identifier: identifier)
            }
            guard let stored = StoredEntity.parse(lines) else {
                throw failure(step.stage, "its recorded model cannot be read")
            }
            do {
                // Rows are judged after the willMigrateHandler: it may have filled what becomes mandatory.
                let migration = try InferredMigration(from: stored, to: next, url: url, judgingRows: true)
                try migration.apply(on: connection, model: next, url: url, identifier: identifier)
                summary += migration.summary
            } catch ManagedStoreError.cannotInferMapping(_, let entity, let property, let reason) {
                throw failure(step.stage, "\(property.map { "\(entity).\($0)" } ?? entity): \(reason)")
            }
            if let custom, let handler = custom.didMigrateHandler {
                try run(handler, of: custom, model: next, on: connection, url: url, identifier: identifier)
            }
            lines = next.schemaLines
            checksum = step.to
        }
        guard checksum == target else {
            throw failure(
                stages.last, "the last stage ends at version \(checksum), not at the model's (\(target))")
        }
        return summary
    }

    /// Runs a handler with ``container`` on the migrating store at `model`.
    private func run(
        _ handler: CustomMigrationStage.Handler, of stage: CustomMigrationStage, model: ManagedObjectModel,
        on connection: SQLiteConnection, url: URL, identifier: String
    ) throws {
        let container = PersistentContainer(name: "StagedMigration", managedObjectModel: model)
        container.persistentStoreCoordinator.attach(
            SQLiteStore.bound(to: connection, model: model, url: url, identifier: identifier))
        current.withLock { $0 = container }
        connection.nestsTransactions = true
        defer {
            connection.nestsTransactions = false
            current.withLock { $0 = nil }
        }
        do {
            try handler(self, stage)
        } catch {
            throw ManagedStoreError.stagedMigrationFailed(
                url: url, stage: Self.name(stage), reason: "its handler threw: \(error)")
        }
    }

    private static func name(_ stage: MigrationStage) -> String {
        if let label = stage.label { return label }
        if let custom = stage as? CustomMigrationStage {
            return "custom \(custom.currentModel.versionChecksum) to \(custom.nextModel.versionChecksum)"
        }
        return "lightweight \(stage.checksums.joined(separator: ", "))"
    }
}
