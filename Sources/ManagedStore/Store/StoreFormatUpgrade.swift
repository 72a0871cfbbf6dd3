import Foundation

/// Brings a store written in an earlier format to ``StoreSchema/formatVersion``, inside the
/// caller's write transaction, before any migration of its model.
///
/// Format 1 kept `.date` columns as seconds since 1970; format 2 keeps them as Core Data does,
/// seconds since 2001 (`timeIntervalSinceReferenceDate`), so that a `Date` is stored as the
/// double it is and comes back bit for bit (counted from 1970, `733310130.4938267` came back
/// as `…269`). The upgrade subtracts 978,307,200 from every date: from the tables, and from the
/// deletion tombstones of the persistent history. For a date from mid-1985 on (at least half
/// the offset after 1970) the difference is exact, so the value does not move; an earlier one
/// may round once more, by at most about 60 nanoseconds. The derived attributes' triggers are
/// made again with `now()` counted from 2001. The upgrade is the store format's, not a model
/// migration: it runs whatever `shouldMigrateStoreAutomatically` says.
enum StoreFormatUpgrade {
    /// The seconds from 1970-01-01 to 2001-01-01, both 00:00 UTC.
    static let offset = 978_307_200.0

    /// What the upgrade does, in words (for a store opened read-only, which cannot make it).
    static let summary = "its dates become seconds since 2001, as Core Data stores them (store format 2)"

    /// Upgrades the store on `connection` from `metadata`'s format.
    static func apply(_ metadata: StoreSchema.Metadata, on connection: SQLiteConnection, url: URL) throws {
        guard metadata.formatVersion == 1 else { return }
        guard let entities = StoredEntity.parse(metadata.schemaLines) else {
            throw ManagedStoreError.notAStore(url: url, reason: "its metadata does not describe its tables")
        }
        // The derived attributes' triggers would fire on the rewritten columns (and re-stamp a
        // now() attribute): they are set aside and made again after, now() counted from 2001.
        var triggers: [String] = []
        let statement = try connection.statement("SELECT sql FROM sqlite_master WHERE type = 'trigger'")
        while try statement.step() {
            if statement.text(0).contains(DerivedAttributeSQL.marker) { triggers.append(statement.text(0)) }
        }
        statement.reset()
        try DerivedAttributeSQL.dropTriggers(on: connection)
        let hasHistory = try HistoryLog.exists(on: connection)
        for entity in entities {
            let dates = entity.columns.filter { $0.kind == AttributeType.date.rawValue }.map(\.name)
            guard !dates.isEmpty else { continue }
            let assignments = dates.map { "\(SQLiteConnection.quote($0)) = \(SQLiteConnection.quote($0)) - \(offset)" }
            try connection.execute(
                "UPDATE \(SQLiteConnection.quote(entity.name)) SET \(assignments.joined(separator: ", "))")
            if hasHistory { try shiftTombstones(of: entity.name, dates, by: -offset, on: connection) }
        }
        for sql in triggers {
            try connection.execute(
                sql.replacingOccurrences(of: DerivedAttributeSQL.nowSince1970, with: DerivedAttributeSQL.now))
        }
        try connection.execute("UPDATE Z_METADATA SET Z_VERSION = \(StoreSchema.formatVersion)")
    }

    /// Adds `shift` seconds to the values of `columns` of `entity` that the persistent
    /// history's deletion tombstones keep.
    static func shiftTombstones(
        of entity: String, _ columns: [String], by shift: Double, on connection: SQLiteConnection
    ) throws {
        let tombstones = try connection.statement(
            """
            UPDATE Z_HISTORYTOMBSTONE SET ZVALUE = ZVALUE + \(shift) WHERE ZNAME = ? AND typeof(ZVALUE) = 'real' \
            AND ZCHANGE IN (SELECT Z_PK FROM Z_HISTORYCHANGE WHERE ZENTITY = ?)
            """)
        for name in columns {
            try tombstones.bind(name, 1)
            try tombstones.bind(entity, 2)
            try tombstones.run()
            tombstones.reset()
        }
    }
}
