import Foundation

/// The SQL that keeps one derived attribute (see ``Derivation``) in step: the expression of its
/// value over its object's row, the triggers that recompute it when the row or what it derives
/// from changes, and the statement that recomputes it for every row (a migration's).
///
/// Triggers, so that the value is computed in the transaction of whatever writes its sources:
/// a save, a batch request, a migration. Each trigger's text carries ``marker``, so that the
/// store's own are told from any other program's. The string functions are SQL functions
/// ManagedStore registers on its connections (`SQLiteConnection`): a program that writes the
/// source column through another SQLite connection gets SQLite's "no such function" error,
/// never a wrong value.
struct DerivedAttributeSQL: Sendable {
    static let marker = "/* ManagedStore derived */"
    /// The time now as a `.date` column holds it: seconds since 2001-01-01 00:00 UTC (Julian
    /// day 2451910.5), Core Data's reference date.
    static let now = "((julianday('now') - 2451910.5) * 86400.0)"
    /// `now` as store format 1 wrote it, in seconds since 1970 (Julian day 2440587.5).
    static let nowSince1970 = "((julianday('now') - 2440587.5) * 86400.0)"

    /// The statements that make the triggers.
    let triggers: [String]
    /// The statement that computes the attribute for every row.
    let recompute: String
    /// The entity whose attribute this is.
    let entityName: String

    /// Why a derivation cannot be computed for its entity (an unknown name, a type that does
    /// not fit): what ``ManagedObjectModel/validate()`` reports.
    struct Problem: Error {
        let message: String
    }

    /// The SQL of `attribute` (derived) of `entity`, whose relationships are resolved; a
    /// ``Problem`` for a derivation the entity cannot have (an unknown name, a type that does
    /// not fit).
    init(_ attribute: AttributeDescription, of entity: EntityDescription) throws(Problem) {
        guard let derivation = attribute.derivation else { throw Problem(message: "\(attribute.name) is not derived") }
        entityName = entity.name
        let table = entity.quotedTable
        let column = SQLiteConnection.quote(attribute.name)
        let label = "\(entity.name).\(attribute.name) (\(derivation))"
        func source(_ name: String, types: Set<AttributeType>? = nil) throws(Problem) -> String {
            ownSources.append(SQLiteConnection.quote(name))
            guard let found = entity.attribute(named: name), found.derivation == nil else {
                throw Problem(
                    message:
                        "the derived attribute \(label) names '\(name)', which is not an attribute of \(entity.name) that is not derived"
                )
            }
            guard (types ?? [attribute.type]).contains(found.type) else {
                throw Problem(
                    message: "the derived attribute \(label) is \(attribute.type), but '\(name)' is \(found.type)")
            }
            return "\(table).\(SQLiteConnection.quote(name))"
        }
        func relationship(_ name: String) throws(Problem) -> ResolvedRelationship {
            guard let found = entity.resolvedRelationship(named: name) else {
                throw Problem(
                    message:
                        "the derived attribute \(label) names '\(name)', which is not a relationship of \(entity.name)")
            }
            return found
        }
        func require(_ condition: Bool, _ message: String) throws(Problem) {
            if !condition { throw Problem(message: "the derived attribute \(label) \(message)") }
        }
        let strings: Set<AttributeType> = [.string]
        // The value over the row, and the triggers on other tables: (table, event, the rows of this entity to recompute).
        var value: String
        var dependencies: [(table: String, event: String, rows: String)] = []
        // The columns of its own row it derives from (besides its own).
        var ownSources: [String] = []
        switch derivation {
        case .attribute(let name):
            value = try source(name)
        case .lowercase(let name):
            try require(attribute.type == .string, "must be a string")
            value = "managedstore_lowercase(\(try source(name, types: strings)))"
        case .uppercase(let name):
            try require(attribute.type == .string, "must be a string")
            value = "managedstore_uppercase(\(try source(name, types: strings)))"
        case .canonical(let name):
            try require(attribute.type == .string, "must be a string")
            value = "managedstore_canonical(\(try source(name, types: strings)))"
        case .now:
            try require(attribute.type == .date, "must be a date")
            value = Self.now
            // Any write of the row's own values (not another derived attribute's).
            ownSources = entity.storedProperties.indices.filter { !entity.derivedSlots.contains($0) }.map {
                entity.quotedColumns[$0]
            }
        case .destinationAttribute(let name, let attributeName):
            let link = try relationship(name)
            guard let slot = link.slot, let found = link.destination.attribute(named: attributeName) else {
                throw Problem(
                    message:
                        "the derived attribute \(label) needs a to-one relationship and an attribute of its destination"
                )
            }
            try require(
                found.type == attribute.type,
                "is \(attribute.type), but \(link.destination.name).\(attributeName) is \(found.type)")
            let destination = link.destination.quotedTable
            let key = entity.quotedColumns[slot]
            ownSources.append(key)
            let other = SQLiteConnection.quote(attributeName)
            value = "(SELECT z.\(other) FROM \(destination) AS z WHERE z.Z_PK = \(table).\(key))"
            dependencies.append((destination, "AFTER UPDATE OF \(other)", "\(key) = NEW.Z_PK"))
            dependencies.append((destination, "AFTER DELETE", "\(key) = OLD.Z_PK"))
        case .count(let name):
            let link = try relationship(name)
            try require([.integer16, .integer32, .integer64].contains(attribute.type), "must be an integer")
            if let join = link.join {
                value = "(SELECT COUNT(*) FROM \(join.quotedName) AS j WHERE j.\(join.ownColumn) = \(table).Z_PK)"
                dependencies.append((join.quotedName, "AFTER INSERT", "Z_PK = NEW.\(join.ownColumn)"))
                dependencies.append((join.quotedName, "AFTER DELETE", "Z_PK = OLD.\(join.ownColumn)"))
            } else if link.isToMany, let inverse = link.inverseSlot {
                let destination = link.destination.quotedTable
                let key = link.destination.quotedColumns[inverse]
                value = "(SELECT COUNT(*) FROM \(destination) AS z WHERE z.\(key) = \(table).Z_PK)"
                dependencies.append((destination, "AFTER INSERT", "Z_PK = NEW.\(key)"))
                dependencies.append((destination, "AFTER DELETE", "Z_PK = OLD.\(key)"))
                dependencies.append((destination, "AFTER UPDATE OF \(key)", "Z_PK IN (OLD.\(key), NEW.\(key))"))
            } else {
                throw Problem(message: "the derived attribute \(label) counts '\(name)', which is not to-many")
            }
        case .aggregate(let function, let name, let attributeName):
            let link = try relationship(name)
            guard link.isToMany, let found = link.destination.attribute(named: attributeName) else {
                throw Problem(
                    message:
                        "the derived attribute \(label) needs a to-many relationship and an attribute of its destination"
                )
            }
            // Computed in SQL, exactly: integers and doubles (a decimal is text to SQLite, which
            // would sum it in floating point).
            let numbers: Set<AttributeType> = [.integer16, .integer32, .integer64, .double]
            try require(
                numbers.contains(found.type),
                "applies @\(function.rawValue) to \(link.destination.name).\(attributeName), a \(found.type); ManagedStore computes it over integer and double attributes"
            )
            let wanted: Set<AttributeType> = function == .avg ? [.double] : [found.type]
            try require(
                wanted.contains(attribute.type),
                "is \(attribute.type), but @\(function.rawValue) of \(link.destination.name).\(attributeName) is \(wanted.first!)"
            )
            let other = SQLiteConnection.quote(attributeName)
            let sql =
                switch function {
                case .sum: "COALESCE(SUM(z.\(other)), 0)"
                case .min: "MIN(z.\(other))"
                case .max: "MAX(z.\(other))"
                case .avg: "AVG(z.\(other))"
                }
            let destination = link.destination.quotedTable
            if let join = link.join {
                value =
                    "(SELECT \(sql) FROM \(join.quotedName) AS j JOIN \(destination) AS z ON z.Z_PK = j.\(join.otherColumn) WHERE j.\(join.ownColumn) = \(table).Z_PK)"
                dependencies.append((join.quotedName, "AFTER INSERT", "Z_PK = NEW.\(join.ownColumn)"))
                dependencies.append((join.quotedName, "AFTER DELETE", "Z_PK = OLD.\(join.ownColumn)"))
                dependencies.append(
                    (
                        destination, "AFTER UPDATE OF \(other)",
                        "Z_PK IN (SELECT \(join.ownColumn) FROM \(join.quotedName) WHERE \(join.otherColumn) = NEW.Z_PK)"
                    ))
            } else if let inverse = link.inverseSlot {
                let key = link.destination.quotedColumns[inverse]
                value = "(SELECT \(sql) FROM \(destination) AS z WHERE z.\(key) = \(table).Z_PK)"
                dependencies.append((destination, "AFTER INSERT", "Z_PK = NEW.\(key)"))
                dependencies.append((destination, "AFTER DELETE", "Z_PK = OLD.\(key)"))
                dependencies.append(
                    (destination, "AFTER UPDATE OF \(key), \(other)", "Z_PK IN (OLD.\(key), NEW.\(key))"))
            } else {
                throw Problem(message: "the derived attribute \(label) needs '\(name)' to have an inverse")
            }
        }
        let set = "UPDATE \(table) SET \(column) = \(value)"
        recompute = set
        var triggers: [String] = []
        func trigger(_ suffix: String, _ event: String, on target: String, rows: String) {
            let name = SQLiteConnection.quote("Z_DERIVED_\(entity.name)_\(attribute.name)_\(suffix)")
            triggers.append(
                "CREATE TRIGGER \(name) \(Self.marker) \(event) ON \(target) FOR EACH ROW BEGIN \(set) WHERE \(rows); END"
            )
        }
        // Its own row: made, or a column it derives from written, or its own (a save writes
        // every column, this one too, with the object's value). Only those: each trigger's
        // update then fires no other attribute's (SQLite does not fire one from within itself).
        trigger("insert", "AFTER INSERT", on: table, rows: "Z_PK = NEW.Z_PK")
        trigger(
            "update", "AFTER UPDATE OF \((ownSources + [column]).joined(separator: ", "))", on: table,
            rows: "Z_PK = NEW.Z_PK")
        for (index, dependency) in dependencies.enumerated() {
            trigger("\(index)", dependency.event, on: dependency.table, rows: dependency.rows)
        }
        self.triggers = triggers
    }

    /// Drops every trigger ManagedStore made (a migration does, before it changes a table).
    static func dropTriggers(on connection: SQLiteConnection) throws {
        let statement = try connection.statement("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
        var names: [String] = []
        while try statement.step() {
            if statement.text(1).contains(marker) { names.append(statement.text(0)) }
        }
        statement.reset()
        for name in names { try connection.execute("DROP TRIGGER \(SQLiteConnection.quote(name))") }
    }

    /// Makes the triggers of `model`'s derived attributes; with `recomputing`, computes every
    /// row's values first (a migration).
    static func createTriggers(on connection: SQLiteConnection, model: ManagedObjectModel, recomputing: Bool) throws {
        for derived in model.derivedAttributes {
            if recomputing { try connection.execute(derived.recompute) }
            for sql in derived.triggers { try connection.execute(sql) }
        }
    }
}
