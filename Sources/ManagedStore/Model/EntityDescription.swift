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
    /// The attributes, in declaration order.
    public let attributes: [AttributeDescription]
    /// Sets of attribute names whose values together must be unique among the entity's rows.
    public let uniquenessConstraints: [[String]]
    /// Sets of attribute names the store indexes, to speed up fetches.
    public let indexes: [[String]]

    let slotByName: [String: Int]
    /// Key paths of `managedObjectClass` already resolved to attribute slots (predicates).
    let keyPathSlots = Locked<[AnyKeyPath: Int]>([:])
    /// `@Attribute` wrapper storage key paths resolved to slots, by identity, published for
    /// lock-free reads; the key paths and tables are kept alive by `storageKeyPaths`.
    let storageSlotTable: Atomic<Unmanaged<StorageSlotTable>>
    let storageKeyPaths: Locked<(keyPaths: [AnyKeyPath], tables: [StorageSlotTable])>
    /// `Z_PK`/`Z_OPT` followed by the quoted attribute columns, for SELECTs.
    let selectColumns: String
    let quotedTable: String
    /// Each attribute's column name, quoted, by slot.
    let quotedColumns: [String]
    /// The values a new object starts with.
    let defaultValues: [AttributeValue]
    /// The slots of the attributes that may not be nil.
    let requiredSlots: [Int]
    /// The statements a save runs, made once per entity.
    let insertSQL: String
    /// Rows per multi-row INSERT, and that statement.
    let insertBatchRows: Int
    let batchInsertSQL: String
    let updateSQL: String
    let checkedUpdateSQL: String
    let deleteSQL: String
    let checkedDeleteSQL: String
    let selectByKeySQL: String

    /// Makes an entity. Names must be unique; constraints and indexes must name attributes.
    public init(name: String, managedObjectClass: ManagedObject.Type, attributes: [AttributeDescription],
                uniquenessConstraints: [[String]] = [], indexes: [[String]] = []) {
        precondition(!name.isEmpty && !name.hasPrefix("Z_"), "ManagedStore: '\(name)' is not a usable entity name")
        var slots: [String: Int] = [:]
        for (slot, attribute) in attributes.enumerated() {
            precondition(slots[attribute.name] == nil, "ManagedStore: entity \(name) declares attribute '\(attribute.name)' twice")
            slots[attribute.name] = slot
        }
        for names in uniquenessConstraints + indexes {
            precondition(!names.isEmpty, "ManagedStore: entity \(name) has an empty constraint or index")
            for attribute in names {
                precondition(slots[attribute] != nil, "ManagedStore: entity \(name) has no attribute '\(attribute)' for its constraint or index")
            }
        }
        self.name = name
        self.managedObjectClass = managedObjectClass
        self.attributes = attributes
        self.uniquenessConstraints = uniquenessConstraints
        self.indexes = indexes
        self.slotByName = slots
        let emptyTable = StorageSlotTable(keys: [], slots: [])
        self.storageSlotTable = Atomic(Unmanaged.passUnretained(emptyTable))
        self.storageKeyPaths = Locked(([], [emptyTable]))
        let table = SQLiteConnection.quote(name)
        let quotedColumns = attributes.map { SQLiteConnection.quote($0.name) }
        let columns = (["Z_PK", "Z_OPT"] + quotedColumns).joined(separator: ", ")
        let assignments = quotedColumns.map { "\($0) = ?" } + ["Z_OPT = ?"]
        self.quotedTable = table
        self.quotedColumns = quotedColumns
        self.selectColumns = columns
        self.defaultValues = attributes.map(\.defaultValue)
        self.requiredSlots = attributes.indices.filter { !attributes[$0].isOptional }
        let rowPlaceholders = "(\(Array(repeating: "?", count: attributes.count + 2).joined(separator: ", ")))"
        self.insertSQL = "INSERT INTO \(table) (\(columns)) VALUES \(rowPlaceholders)"
        // Up to 50 rows a statement, within SQLite's limit on parameters.
        let batchRows = max(1, min(50, 30_000 / (attributes.count + 2)))
        self.insertBatchRows = batchRows
        self.batchInsertSQL = "INSERT INTO \(table) (\(columns)) VALUES " + Array(repeating: rowPlaceholders, count: batchRows).joined(separator: ", ")
        self.updateSQL = "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?"
        self.checkedUpdateSQL = updateSQL + " AND Z_OPT = ?"
        self.deleteSQL = "DELETE FROM \(table) WHERE Z_PK = ?"
        self.checkedDeleteSQL = deleteSQL + " AND Z_OPT = ?"
        self.selectByKeySQL = "SELECT \(columns) FROM \(table) WHERE Z_PK = ?"
        Immortal.keep(self)
    }

    /// The attribute named `name`, if the entity has one.
    public func attribute(named name: String) -> AttributeDescription? {
        slotByName[name].map { attributes[$0] }
    }

    /// A line-per-fact description used to tell whether a store fits a model.
    var schemaLines: [String] {
        var lines = ["entity \(name)"]
        lines += attributes.map { "attribute \(name).\($0.name) (\($0.type.rawValue)\($0.isOptional ? ", optional" : ""))" }
        lines += uniquenessConstraints.map { "uniqueness constraint \(name)(\($0.joined(separator: ", ")))" }
        return lines
    }

    public static func == (lhs: EntityDescription, rhs: EntityDescription) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    public var description: String {
        "\(name) (\(attributes.map(\.description).joined(separator: ", ")))"
    }
}
