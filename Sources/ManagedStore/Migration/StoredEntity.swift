import Foundation

/// An entity as a store records it: the facts of its table (columns, uniqueness constraints),
/// read back from the store's metadata or made from a model's entity, so that the two can be
/// compared and a migration planned between them.
struct StoredEntity: Sendable, Equatable {
    /// One column of the entity's table: an attribute, or a to-one relationship's key.
    struct Column: Sendable, Equatable {
        var name: String
        /// The attribute type's name (`string`, `decimal`, …), or `-> Destination` for a to-one
        /// relationship.
        var kind: String
        var isOptional: Bool
        /// The SQL type of the column.
        var sqlType: String
    }

    var name: String
    /// The entity it inherits from, for a sub-entity (its rows are in that hierarchy's table).
    var superentityName: String?
    var columns: [Column]
    var uniquenessConstraints: [[String]]
    /// Facts without a column (to-many relationships): compared, but need no change to the
    /// entity's table (a many-to-many one has a join table of its own).
    var otherLines: [String]

    func column(named name: String) -> Column? { columns.first { $0.name == name } }

    /// The entity's many-to-many relationships, as its lines record them (`relationship
    /// Note.tags ->> Tag (to-many, optional, many-to-many with Tag.notes)`): their join tables.
    var joinTables: [JoinTable] {
        otherLines.compactMap { line -> JoinTable? in
            let marker = "many-to-many with "
            guard let open = line.lastIndex(of: "("), let range = line.range(of: marker, range: open..<line.endIndex)
            else { return nil }
            let head = line.dropFirst("relationship \(name).".count)
            guard let space = head.firstIndex(of: " ") else { return nil }
            let other = line[range.upperBound...].dropLast()  // "Tag.notes", without ")"
            guard let dot = other.firstIndex(of: ".") else { return nil }
            return JoinTable(
                entity: name, relationship: String(head[..<space]), inverseEntity: String(other[..<dot]),
                inverse: String(other[other.index(after: dot)...]))
        }
    }

    /// The entities a store's schema lines describe (see ``EntityDescription/schemaLines``);
    /// nil when a line is not understood (a store written by another version).
    static func parse(_ lines: [String]) -> [StoredEntity]? {
        var entities: [StoredEntity] = []
        for line in lines {
            if line.hasPrefix("entity ") {
                entities.append(
                    StoredEntity(
                        name: String(line.dropFirst(7)), columns: [], uniquenessConstraints: [], otherLines: []))
                continue
            }
            guard !entities.isEmpty else { return nil }
            let prefix = "\(entities[entities.count - 1].name)."
            if line.hasPrefix("superentity \(prefix)") {
                // superentity Car.Vehicle
                entities[entities.count - 1].superentityName = String(line.dropFirst("superentity \(prefix)".count))
                continue
            }
            if line.hasPrefix("attribute ") {
                // attribute Entity.name (type[, optional])
                let body = line.dropFirst(10)
                // The facts start at the first parenthesis (a derivation has its own).
                guard body.hasPrefix(prefix), let open = body.firstIndex(of: "("), body.hasSuffix(")") else {
                    return nil
                }
                let name = String(body[body.index(body.startIndex, offsetBy: prefix.count)..<open])
                    .trimmingTrailingSpace
                let facts = body[body.index(after: open)..<body.index(before: body.endIndex)].split(separator: ",").map
                { $0.trimmingCharacters(in: .whitespaces) }
                guard let typeName = facts.first, let type = AttributeType(rawValue: typeName) else { return nil }
                entities[entities.count - 1].columns.append(
                    Column(name: name, kind: typeName, isOptional: facts.contains("optional"), sqlType: type.sqlType))
            } else if line.hasPrefix("relationship ") {
                // relationship Entity.name -> Destination (to-one[, optional]) or ->> for to-many
                let body = line.dropFirst(13)
                guard body.hasPrefix(prefix), let open = body.lastIndex(of: "(") else { return nil }
                let head = body[body.index(body.startIndex, offsetBy: prefix.count)..<open].split(separator: " ").map(
                    String.init)
                guard head.count == 3 else { return nil }
                if head[1] == "->" {
                    entities[entities.count - 1].columns.append(
                        Column(
                            name: head[0], kind: "-> \(head[2])",
                            isOptional: body[open...].contains("optional"), sqlType: "INTEGER"))
                } else {
                    entities[entities.count - 1].otherLines.append(line)
                }
            } else if line.hasPrefix("uniqueness constraint ") {
                let body = line.dropFirst(22)
                guard body.hasPrefix(entities[entities.count - 1].name + "("), body.hasSuffix(")") else { return nil }
                let inner = body.dropFirst(entities[entities.count - 1].name.count + 1).dropLast()
                entities[entities.count - 1].uniquenessConstraints.append(inner.components(separatedBy: ", "))
            } else {
                return nil
            }
        }
        return entities
    }
}

private extension String {
    var trimmingTrailingSpace: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
