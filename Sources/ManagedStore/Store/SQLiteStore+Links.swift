import Foundation

extension SQLiteStore {
    /// Removes the links of the objects of `entity` with `keys` from every join table of its
    /// many-to-many relationships (their rows are being deleted). Inside a write transaction.
    static func deleteLinks(of entity: EntityDescription, keys: [Int64], on connection: SQLiteConnection) throws {
        for relationship in entity.resolvedRelationships {
            guard let join = relationship.join else { continue }
            try deleteLinks(in: join, keys: keys, on: connection)
        }
    }

    /// Removes the links of the objects with `keys` (on `join`'s own side, or either side of a
    /// symmetric table, whose links are a row each way) from `join`.
    static func deleteLinks(in join: JoinTable, keys: [Int64], on connection: SQLiteConnection) throws {
        for start in stride(from: 0, to: keys.count, by: 500) {
            let batch = keys[start..<min(keys.count, start + 500)]
            let parameters = (1...batch.count).map { "?\($0)" }.joined(separator: ", ")
            let statement = try connection.statement(
                "DELETE FROM \(join.quotedName) WHERE \(join.ownColumn) IN (\(parameters))"
                    + (join.isSymmetric ? " OR \(join.otherColumn) IN (\(parameters))" : ""))
            defer { statement.reset() }
            for (index, key) in batch.enumerated() { try statement.bind(key, Int32(index + 1)) }
            try statement.run()
        }
    }

    /// The links of the objects with keys `owners` through the join table `join` (seen from
    /// their side) to existing rows of `destination`: (owner's key, member's key) pairs, by
    /// owner and member.
    func joinedKeys(
        _ join: JoinTable, destination: EntityDescription, owners: [Int64], in generation: QueryGeneration? = nil
    ) throws -> [(owner: Int64, member: Int64)] {
        try read(in: generation) { connection in
            var pairs: [(owner: Int64, member: Int64)] = []
            for start in stride(from: 0, to: owners.count, by: 500) {
                let batch = owners[start..<min(owners.count, start + 500)]
                let statement = try connection.statement(
                    "SELECT j.\(join.ownColumn), j.\(join.otherColumn) FROM \(join.quotedName) AS j "
                        + "JOIN \(destination.quotedTable) AS z ON z.Z_PK = j.\(join.otherColumn) "
                        + "WHERE j.\(join.ownColumn) IN (\(Array(repeating: "?", count: batch.count).joined(separator: ", "))) "
                        + "ORDER BY j.\(join.ownColumn), j.\(join.otherColumn)")
                defer { statement.reset() }
                for (index, key) in batch.enumerated() { try statement.bind(key, Int32(index + 1)) }
                while try statement.step() { pairs.append((statement.int64(0), statement.int64(1))) }
            }
            return pairs
        }
    }
}
