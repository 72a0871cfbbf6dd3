/// Where a many-to-many relationship keeps its links: a table of its own, as Core Data keeps
/// one per many-to-many pair (`Z_1TAGS`), with one row per linked pair of objects.
///
/// The pair's *primary* side is the relationship whose `Entity.relationship` name sorts first;
/// the table is named after it, `Z_<Entity>_<relationship>`, and holds `Z_OWNER` (the key of
/// the primary side's object) and `Z_MEMBER` (the key of the other side's), with a primary
/// key on (`Z_OWNER`, `Z_MEMBER`) and an index on (`Z_MEMBER`, `Z_OWNER`), so that either
/// side's members are one index range. Both relationships of the pair read the same rows.
///
/// A relationship that is its own inverse (a reflexive `friends`, as Core Data allows) is
/// *symmetric*: it is the primary side, and each link is kept as two rows, one each way, so
/// that either object's members are its `Z_OWNER` range, as for any primary side.
struct JoinTable: Sendable, Hashable {
    /// The table's name, unquoted.
    let name: String
    /// Whether this side is the primary one: its objects' keys are in `Z_OWNER`.
    let isPrimary: Bool
    /// Whether the relationship is its own inverse: each link is two rows, one each way.
    let isSymmetric: Bool

    /// The table's name, quoted for SQL.
    var quotedName: String { SQLiteConnection.quote(name) }
    /// The column holding this side's objects' keys.
    var ownColumn: String { isPrimary ? "Z_OWNER" : "Z_MEMBER" }
    /// The column holding the related objects' keys.
    var otherColumn: String { isPrimary ? "Z_MEMBER" : "Z_OWNER" }

    /// The table of `entity.relationship`, whose inverse is `inverseEntity.inverse`.
    init(entity: String, relationship: String, inverseEntity: String, inverse: String) {
        let own = "\(entity).\(relationship)", other = "\(inverseEntity).\(inverse)"
        isSymmetric = own == other
        isPrimary = own <= other
        name = isPrimary ? "Z_\(entity)_\(relationship)" : "Z_\(inverseEntity)_\(inverse)"
    }

    /// The statements that make the table and its index.
    var createSQL: [String] {
        [
            "CREATE TABLE \(quotedName) (Z_OWNER INTEGER NOT NULL, Z_MEMBER INTEGER NOT NULL, PRIMARY KEY (Z_OWNER, Z_MEMBER)) WITHOUT ROWID",
            "CREATE INDEX \(SQLiteConnection.quote(name + "_member")) ON \(quotedName) (Z_MEMBER, Z_OWNER)",
        ]
    }
}
