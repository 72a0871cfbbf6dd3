import Foundation
import Synchronization

/// An entity: a name, the ``ManagedObject`` subclass that represents it, its attributes, and
/// the uniqueness constraints and indexes of its table.
///
/// ```swift
/// let note = EntityDescription(
///     name: "Note", managedObjectClass: Note.self,
///     attributes: [
///         AttributeDescription(name: "title", type: .string),
///         AttributeDescription(name: "created", type: .date),
///     ],
///     uniquenessConstraints: [["title"]],
///     indexes: [["created"]])
/// ```
///
/// An entity is immutable once made, and so `Sendable`.
public final class EntityDescription: Sendable, Hashable, CustomStringConvertible {
    /// The entity's name, which is also its table's name.
    public let name: String
    /// The class instantiated for this entity's objects.
    public let managedObjectClass: ManagedObject.Type
    /// The attributes, in declaration order (transient ones too); a sub-entity's start with
    /// those it inherits.
    public let attributes: [AttributeDescription]
    /// The attributes the store keeps (all but the transient ones), by slot: slot `i` below
    /// their count is `persistentAttributes[i]`.
    let persistentAttributes: [AttributeDescription]
    /// The transient attributes: their slots follow ``storedProperties``'.
    let transientAttributes: [AttributeDescription]
    /// Sets of attribute names whose values together must be unique among the entity's rows.
    public let uniquenessConstraints: [[String]]
    /// Sets of attribute names the store indexes, to speed up fetches.
    public let indexes: [[String]]
    /// The relationships, in declaration order; a sub-entity's start with those it inherits.
    public let relationships: [RelationshipDescription]
    /// The entity this one inherits its properties from (Core Data's `superentity`): its
    /// objects are in the superentity's table, and a fetch of the superentity finds them.
    public let superentity: EntityDescription?
    /// Whether objects of this entity itself cannot be made, only of its sub-entities (Core
    /// Data's `isAbstract`).
    public let isAbstract: Bool
    /// The entities that name this one as their superentity in the model that resolved it
    /// (Core Data's `subentities`). Set once, by that model.
    nonisolated(unsafe) public private(set) var subentities: [EntityDescription] = []
    /// The entity's name in the previous model version, when it was renamed (Core Data's
    /// `renamingIdentifier`), so that a migration keeps its rows.
    public let renamingIdentifier: String?

    /// What the table stores, by slot: the attributes, then a column per to-one relationship
    /// (of type `.objectID`), then the position column of each to-one whose inverse is an
    /// ordered to-many (see ``positionColumns``). An object's values follow this order.
    ///
    /// This and the other properties of the table's layout are set by `layOut(positionColumns:)`:
    /// once when the entity is made, and again, before any use, by the first model that finds
    /// one of its to-ones to be the inverse of an ordered relationship.
    nonisolated(unsafe) private(set) var storedProperties: [AttributeDescription] = []
    /// The to-one relationships whose inverse is ordered, each with a position column (in this
    /// order, after the to-ones' slots).
    nonisolated(unsafe) private(set) var positionColumns: [String] = []
    /// What a fetch of an entity with sub-entities selects, and each entity of the subtree by
    /// name with where its slots are among those columns (see `subtreeSelection`).
    struct Subtree {
        let columns: String
        let entities: [String: (entity: EntityDescription, slotColumns: [Int32])]
    }
    /// For an entity with sub-entities, its ``Subtree``. Set once, when resolved.
    nonisolated(unsafe) private(set) var subtree: Subtree?
    /// Whether a model has resolved the entity, which fixes its layout.
    nonisolated(unsafe) private(set) var isResolved = false
    /// The slot of each attribute and to-one relationship, by name (transient ones too).
    nonisolated(unsafe) private(set) var slotByName: [String: Int] = [:]
    /// The slots the store holds (attributes but the transient ones, and to-ones), by name: what
    /// the APIs that read or write columns by name resolve a name with.
    nonisolated(unsafe) private(set) var storedSlotByName: [String: Int] = [:]
    /// The relationships by name.
    let relationshipsByName: [String: RelationshipDescription]
    /// Each slot's destination entity, for the to-one relationships' slots (nil for
    /// attributes). Set once, by the model that holds the entity, before the entity is used.
    nonisolated(unsafe) private(set) var slotDestinations: [EntityDescription?]
    /// The relationships, resolved (in declaration order). Set once, with `slotDestinations`.
    nonisolated(unsafe) private(set) var resolvedRelationships: [ResolvedRelationship] = []
    /// Whether a save must check this entity's objects' relationships: a mandatory to-one, or
    /// a to-many with a minimum, a maximum, or that may not be empty.
    nonisolated(unsafe) private(set) var validatesRelationships = false
    /// Whether deleting one of this entity's objects may deny the save.
    nonisolated(unsafe) private(set) var deniesDeletion = false
    /// Key paths of `managedObjectClass` already resolved to attribute slots (predicates).
    let keyPathSlots = Locked<[AnyKeyPath: Int]>([:])
    /// `@Attribute` wrapper storage key paths resolved to slots, by identity, published for
    /// lock-free reads; the key paths and tables are kept alive by `storageKeyPaths`.
    let storageSlotTable: Atomic<Unmanaged<StorageSlotTable>>
    let storageKeyPaths: Locked<(keyPaths: [AnyKeyPath], tables: [StorageSlotTable])>
    /// `Z_PK`/`Z_OPT` followed by the quoted attribute columns, for SELECTs.
    nonisolated(unsafe) private(set) var selectColumns = ""
    let quotedTable: String
    /// Each attribute's column name, quoted, by slot.
    nonisolated(unsafe) private(set) var quotedColumns: [String] = []
    /// The values a new object starts with.
    nonisolated(unsafe) private(set) var defaultValues: [AttributeValue] = []
    /// The values the transient attributes start with.
    let transientDefaults: [AttributeValue]
    /// The slots of the attributes that may not be nil.
    nonisolated(unsafe) private(set) var requiredSlots: [Int] = []
    /// The slot of each of ``persistentAttributes`` (in a sub-entity, its own come after the
    /// superentity's whole layout, so that an inherited property has the same slot in both).
    nonisolated(unsafe) private(set) var attributeSlots: [Int] = []
    /// The slots of the attributes with external storage.
    nonisolated(unsafe) private(set) var externalSlots: [Int] = []
    /// The slots of the binary attributes: those whose column may name a file (written while
    /// the attribute had external storage, which it may not have any more).
    nonisolated(unsafe) private(set) var binarySlots: [Int] = []
    /// The slots of the to-one relationships' keys.
    nonisolated(unsafe) private(set) var toOneSlots: [Int] = []
    /// The attribute at each stored slot (nil for a to-one's key or a position).
    nonisolated(unsafe) private(set) var slotAttributes: [AttributeDescription?] = []
    /// The statements a save runs, made once per layout.
    nonisolated(unsafe) private(set) var insertSQL = ""
    /// Rows per multi-row INSERT, and that statement.
    nonisolated(unsafe) private(set) var insertBatchRows = 1
    nonisolated(unsafe) private(set) var batchInsertSQL = ""
    nonisolated(unsafe) private(set) var updateSQL = ""
    nonisolated(unsafe) private(set) var checkedUpdateSQL = ""
    let deleteSQL: String
    let checkedDeleteSQL: String
    nonisolated(unsafe) private(set) var selectByKeySQL = ""
    /// The slots of the derived attributes, and the statement that reads their values by key.
    nonisolated(unsafe) private(set) var derivedSlots: [Int] = []
    nonisolated(unsafe) private(set) var selectDerivedSQL = ""

    /// Makes an entity. Names must be unique; constraints and indexes must name attributes.
    ///
    /// A sub-entity names its `superentity` (made first, and in the same model): it inherits
    /// its attributes, relationships and uniqueness constraints, adds its own, and its class
    /// must be a subclass of the superentity's. An abstract entity (`isAbstract`) has objects
    /// only through its sub-entities.
    public init(
        name: String, managedObjectClass: ManagedObject.Type, superentity: EntityDescription? = nil,
        isAbstract: Bool = false, attributes: [AttributeDescription],
        relationships: [RelationshipDescription] = [],
        uniquenessConstraints: [[String]] = [], indexes: [[String]] = [], renamingIdentifier: String? = nil
    ) {
        precondition(!name.isEmpty && !name.hasPrefix("Z_"), "ManagedStore: '\(name)' is not a usable entity name")
        precondition(
            !attributes.contains { $0.type == .objectID },
            "ManagedStore: entity \(name) declares an .objectID attribute; declare a RelationshipDescription instead")
        let attributes = (superentity?.attributes ?? []) + attributes
        let relationships = (superentity?.relationships ?? []) + relationships
        let uniquenessConstraints = (superentity?.uniquenessConstraints ?? []) + uniquenessConstraints
        let persistent = attributes.filter { !$0.isTransient }
        let transient = attributes.filter(\.isTransient)
        var slots: [String: Int] = [:]
        for (slot, property)
            in (persistent.map(\.name) + relationships.filter { !$0.isToMany }.map(\.name)
            + transient.map(\.name)).enumerated()
        {
            precondition(slots[property] == nil, "ManagedStore: entity \(name) declares property '\(property)' twice")
            slots[property] = slot
        }
        let storedCount = slots.count - transient.count
        var byName: [String: RelationshipDescription] = [:]
        for relationship in relationships {
            precondition(
                byName[relationship.name] == nil && (relationship.isToMany ? slots[relationship.name] == nil : true),
                "ManagedStore: entity \(name) declares property '\(relationship.name)' twice")
            byName[relationship.name] = relationship
        }
        self.relationships = relationships
        self.relationshipsByName = byName
        self.renamingIdentifier = renamingIdentifier
        self.slotDestinations = []
        for names in uniquenessConstraints + indexes {
            precondition(!names.isEmpty, "ManagedStore: entity \(name) has an empty constraint or index")
            for attribute in names {
                precondition(
                    slots[attribute].map { $0 < storedCount } ?? false,
                    "ManagedStore: entity \(name) has no stored attribute '\(attribute)' for its constraint or index")
            }
        }
        self.name = name
        self.managedObjectClass = managedObjectClass
        self.superentity = superentity
        self.isAbstract = isAbstract
        self.attributes = attributes
        self.persistentAttributes = persistent
        self.transientAttributes = transient
        self.transientDefaults = transient.map(\.defaultValue)
        self.uniquenessConstraints = uniquenessConstraints
        self.indexes = indexes
        let emptyTable = StorageSlotTable(keys: [], slots: [])
        self.storageSlotTable = Atomic(Unmanaged.passUnretained(emptyTable))
        self.storageKeyPaths = Locked(([], [emptyTable]))
        // A hierarchy is one table, its root's (Core Data's layout).
        let table = superentity?.quotedTable ?? SQLiteConnection.quote(name)
        self.quotedTable = table
        self.deleteSQL = "DELETE FROM \(table) WHERE Z_PK = ?"
        self.checkedDeleteSQL = deleteSQL + " AND Z_OPT = ?"
        layOut(positionColumns: [])
        Immortal.keep(self)
    }

    /// Sets what depends on the table's columns: the stored properties (attributes, to-one
    /// keys, then a position column per to-one in `positionColumns`), the slots by name, and
    /// the statements a save and a fetch run.
    private func layOut(positionColumns: [String]) {
        let inherited = superentity?.storedProperties ?? []
        let ownAttributes = persistentAttributes.dropFirst(superentity?.persistentAttributes.count ?? 0)
        let stored =
            inherited + ownAttributes
            + relationships.dropFirst(superentity?.relationships.count ?? 0).filter { !$0.isToMany }.map {
                AttributeDescription(name: $0.name, type: .objectID, isOptional: true)
            }
            + positionColumns.map(AttributeDescription.init(positionColumnOf:))
        attributeSlots =
            (superentity?.attributeSlots ?? [])
            + ownAttributes.indices.map { inherited.count + $0 - ownAttributes.startIndex }
        slotAttributes = Array(repeating: nil, count: stored.count)
        for (index, slot) in attributeSlots.enumerated() { slotAttributes[slot] = persistentAttributes[index] }
        requiredSlots = attributeSlots.indices.filter { !persistentAttributes[$0].isOptional }.map {
            attributeSlots[$0]
        }
        derivedSlots = attributeSlots.indices.filter { persistentAttributes[$0].derivation != nil }.map {
            attributeSlots[$0]
        }
        selectDerivedSQL =
            "SELECT \(derivedSlots.map { SQLiteConnection.quote(stored[$0].name) }.joined(separator: ", ")) FROM \(quotedTable) WHERE Z_PK = ?"
        toOneSlots = stored.indices.filter { stored[$0].type == .objectID }
        externalSlots = stored.indices.filter { stored[$0].allowsExternalBinaryDataStorage }
        binarySlots = stored.indices.filter { stored[$0].type == .binaryData }
        var slots: [String: Int] = [:]
        for (slot, property) in (stored + transientAttributes).enumerated() { slots[property.name] = slot }
        self.positionColumns = positionColumns
        storedProperties = stored
        slotDestinations = Array(repeating: nil, count: stored.count)
        slotByName = slots
        storedSlotByName = slots.filter { $0.value < stored.count }
        let quotedColumns = stored.map { SQLiteConnection.quote($0.name) }
        let columns = (["Z_PK", "Z_OPT"] + quotedColumns).joined(separator: ", ")
        let assignments = quotedColumns.map { "\($0) = ?" } + ["Z_OPT = ?"]
        self.quotedColumns = quotedColumns
        selectColumns = columns
        defaultValues = stored.map(\.defaultValue)
        // A row of a hierarchy's table names its entity (Core Data's Z_ENT), a constant here.
        let entityColumn = isInHierarchy ? ", Z_ENT" : ""
        let entityValue = isInHierarchy ? ", \(entityLiteral)" : ""
        let rowPlaceholders =
            "(\(Array(repeating: "?", count: stored.count + 2).joined(separator: ", "))\(entityValue))"
        let insertColumns = columns + entityColumn
        insertSQL = "INSERT INTO \(quotedTable) (\(insertColumns)) VALUES \(rowPlaceholders)"
        // Up to 50 rows a statement, within SQLite's limit on parameters.
        let batchRows = max(1, min(50, 30_000 / (stored.count + 2)))
        insertBatchRows = batchRows
        batchInsertSQL =
            "INSERT INTO \(quotedTable) (\(insertColumns)) VALUES "
            + Array(repeating: rowPlaceholders, count: batchRows).joined(separator: ", ")
        updateSQL = "UPDATE \(quotedTable) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?"
        checkedUpdateSQL = updateSQL + " AND Z_OPT = ?"
        selectByKeySQL = "SELECT \(columns) FROM \(quotedTable) WHERE Z_PK = ?"
    }

    /// Lays the entity out for a model, before the model resolves it: the position columns its
    /// ordered relationships need (`toOnes`: its to-ones whose inverse is ordered) and its
    /// sub-entities in that model. Nil when done or already so; a problem when another model
    /// has fixed a different layout. A superentity is laid out before its sub-entities.
    func requireLayout(positionsFor toOnes: [String], subentities: [EntityDescription]) -> String? {
        let inheritedCount = superentity?.relationships.count ?? 0
        let wanted = relationships.dropFirst(inheritedCount).filter { !$0.isToMany && toOnes.contains($0.name) }.map(
            \.name)
        let sameSubentities = subentities.map(ObjectIdentifier.init) == self.subentities.map(ObjectIdentifier.init)
        if isResolved {
            if wanted != positionColumns {
                return
                    "entity \(name) is also in another model, where \(positionColumns.isEmpty ? "none of its to-ones is the inverse of an ordered relationship" : "the inverse of its \(positionColumns.joined(separator: ", ")) is ordered"), and its table cannot fit both (make an EntityDescription per model version)"
            }
            if !sameSubentities {
                return
                    "entity \(name) is also in another model, with the sub-entities \(self.subentities.map(\.name)), and its table cannot fit both (make an EntityDescription per model version)"
            }
            return nil
        }
        self.subentities = subentities
        layOut(positionColumns: wanted)
        return nil
    }

    /// An entity without attributes that stands for `managedObjectClass` while the class is
    /// reflected on (``declaredAttributes(of:)``); no model holds it.
    convenience init(name: String, placeholderFor managedObjectClass: ManagedObject.Type) {
        self.init(name: name, managedObjectClass: managedObjectClass, attributes: [])
    }

    /// The attribute named `name`, if the entity has one.
    public func attribute(named name: String) -> AttributeDescription? {
        slotByName[name].flatMap(attribute(atSlot:))
    }

    /// Whether `slot` holds a persistent attribute (not a to-one's key, a position, or a
    /// transient attribute).
    func isAttributeSlot(_ slot: Int) -> Bool {
        slot >= 0 && slot < slotAttributes.count && slotAttributes[slot] != nil
    }

    /// The attribute at `slot` (a persistent or transient one), nil for a to-one's slot.
    func attribute(atSlot slot: Int) -> AttributeDescription? {
        if slot < slotAttributes.count { return slotAttributes[slot] }
        let transient = slot - storedProperties.count
        return transient >= 0 && transient < transientAttributes.count ? transientAttributes[transient] : nil
    }

    /// The relationship named `name`, if the entity has one.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationshipsByName[name]
    }

    /// The relationship named `name`, resolved.
    func resolvedRelationship(named name: String) -> ResolvedRelationship? {
        resolvedRelationships.first { $0.name == name }
    }

    /// A hash of what a store records of the entity (name, attributes and their types and
    /// optionality, relationships, uniqueness constraints), as Core Data's `versionHash`: two
    /// entities with equal hashes use the same table. Renaming identifiers, defaults and indexes
    /// do not count.
    public var versionHash: String { Self.hash(schemaLines) }

    /// The attributes whose values a deletion's history tombstone keeps: those of the
    /// uniqueness constraints, and those marked ``AttributeDescription/preservesValueInHistoryOnDeletion``.
    var tombstoneAttributeNames: [String] {
        Set(uniquenessConstraints.joined()).union(attributes.filter(\.preservesValueInHistoryOnDeletion).map(\.name))
            .sorted()
    }

    /// FNV-1a (64 bits) of the lines, as 16 hex digits: stable across processes and releases,
    /// unlike Swift's `Hasher`.
    static func hash(_ lines: [String]) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in lines.joined(separator: "\n").utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A line-per-fact description used to tell whether a store fits a model.
    var schemaLines: [String] {
        var lines = ["entity \(name)"]
        // A sub-entity records what it adds to its superentity (whose lines record the rest).
        if let superentity { lines.append("superentity \(name).\(superentity.name)") }
        lines += persistentAttributes.dropFirst(superentity?.persistentAttributes.count ?? 0).map {
            "attribute \(name).\($0.name) (\($0.type.rawValue)\($0.isOptional ? ", optional" : "")"
                + ($0.derivation.map { ", derived \($0)" } ?? "") + ")"
        }
        lines += positionColumns.map { "attribute \(name).Z_FOK_\($0) (integer64, optional)" }
        lines += relationships.dropFirst(superentity?.relationships.count ?? 0).map { relationship in
            relationship.schemaLine(
                entity: name,
                manyToManyInverse: resolvedRelationship(named: relationship.name)?.isManyToMany == true
                    ? relationship.inverseName : nil)
        }
        lines += uniquenessConstraints.dropFirst(superentity?.uniquenessConstraints.count ?? 0).map {
            "uniqueness constraint \(name)(\($0.joined(separator: ", ")))"
        }
        return lines
    }

    /// Resolves the to-one relationships' destinations in `model` (once, by the model's init).
    func resolveDestinations(in model: [String: EntityDescription]) {
        var destinations = slotDestinations
        var resolved: [ResolvedRelationship] = []
        for relationship in relationships {
            guard let destination = model[relationship.destinationEntityName] else {
                preconditionFailure(
                    "ManagedStore: relationship \(name).\(relationship.name) names entity \(relationship.destinationEntityName), which the model does not have"
                )
            }
            if let inverseName = relationship.inverseName {
                guard let inverse = destination.relationshipsByName[inverseName] else {
                    preconditionFailure(
                        "ManagedStore: relationship \(name).\(relationship.name) names inverse \(inverseName), which entity \(destination.name) does not have"
                    )
                }
                precondition(
                    model[inverse.destinationEntityName].map { isKindOf(entity: $0) } == true
                        && inverse.inverseName == relationship.name,
                    "ManagedStore: \(name).\(relationship.name) and \(destination.name).\(inverseName) are not each other's inverse"
                )
            }
            if !relationship.isToMany, let slot = slotByName[relationship.name] {
                precondition(
                    slotDestinations[slot] == nil || slotDestinations[slot] === destination,
                    "ManagedStore: entity \(name) is in two models with different destinations for \(relationship.name)"
                )
                destinations[slot] = destination
            }
            let inverse = relationship.inverseName.flatMap { destination.relationshipsByName[$0] }
            resolved.append(
                ResolvedRelationship(
                    description: relationship, slot: relationship.isToMany ? nil : slotByName[relationship.name],
                    destination: destination,
                    inverse: inverse,
                    inverseSlot: inverse.flatMap { $0.isToMany ? nil : destination.slotByName[$0.name] },
                    inverseIndex: inverse.flatMap { inverse in
                        destination.relationships.firstIndex { $0.name == inverse.name }
                    },
                    join: inverse.flatMap { inverse in
                        relationship.isToMany && inverse.isToMany
                            ? JoinTable(
                                entity: declaringEntity(of: relationship.name).name, relationship: relationship.name,
                                inverseEntity: destination.declaringEntity(of: inverse.name).name,
                                inverse: inverse.name) : nil
                    },
                    positionSlot: relationship.isToMany ? nil : slotByName["Z_FOK_\(relationship.name)"],
                    memberPositionSlot: relationship.isOrdered
                        ? inverse.flatMap { destination.slotByName["Z_FOK_\($0.name)"] } : nil))
        }
        slotDestinations = destinations
        resolvedRelationships = resolved
        isResolved = true
        if !subentities.isEmpty { subtree = subtreeSelection }
        validatesRelationships = relationships.contains {
            $0.isToMany ? (!$0.isOptional || $0.minCount > 0 || $0.maxCount > 0) : !$0.isOptional
        }
        deniesDeletion = relationships.contains { $0.deleteRule == .deny }
    }

    public static func == (lhs: EntityDescription, rhs: EntityDescription) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    public var description: String {
        "\(name) (\(attributes.map(\.description).joined(separator: ", ")))"
    }
}
