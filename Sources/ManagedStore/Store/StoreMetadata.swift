import Foundation

/// What a store file says of itself: its identifier, its format, and the entities of the model
/// that wrote it, with their version hashes (Core Data's store metadata).
///
/// ```swift
/// let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(at: url)
/// if !model.isConfiguration(compatibleWithStoreMetadata: metadata) {
///     // loading the store will migrate it (or refuse it, saying why)
/// }
/// ```
public struct StoreMetadata: Sendable, Hashable {
    /// The store's identifier, as in its object IDs' URIs.
    public let storeIdentifier: String
    /// The file format version.
    public let formatVersion: Int
    /// The entities' names, in the model's order.
    public let entityNames: [String]
    /// Each entity's version hash (see ``EntityDescription/versionHash``), by name.
    public let entityVersionHashesByName: [String: String]

    init(_ metadata: StoreSchema.Metadata) {
        storeIdentifier = metadata.identifier
        formatVersion = metadata.formatVersion
        let entities = StoredEntity.parse(metadata.schemaLines) ?? []
        entityNames = entities.map(\.name)
        var hashes: [String: String] = [:]
        var current: String?
        var lines: [String] = []
        func flush() { if let current { hashes[current] = EntityDescription.hash(lines) } }
        for line in metadata.schemaLines {
            if line.hasPrefix("entity ") {
                flush()
                current = String(line.dropFirst(7))
                lines = []
            }
            lines.append(line)
        }
        flush()
        entityVersionHashesByName = hashes
    }
}
