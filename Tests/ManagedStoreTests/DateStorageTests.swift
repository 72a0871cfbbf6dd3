import Foundation
import ManagedStore
import TestSupport
import Testing

final class Jotting: ManagedObject {
    @Attribute var name: String
    @Attribute var at: Date
    @Attribute var touched: Date?
}

/// Dates are stored as Core Data stores them, seconds since 2001 (`timeIntervalSinceReferenceDate`),
/// so a `Date` comes back bit for bit; a store written when they were counted from 1970
/// (format 1) is upgraded on its first writable open, its tables, its history's tombstones and
/// its `now()` triggers, checked against Python's own float arithmetic.
@Suite struct DateStorageTests {
    /// `ECBRATES_SEED` rebuilds a run; else the suite's own seed.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? 2001_01_01

    static let model = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Jotting", managedObjectClass: Jotting.self,
            attributes: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "at", type: .date, preservesValueInHistoryOnDeletion: true),
                AttributeDescription(name: "touched", type: .date, derivationExpression: "now()"),
            ],
            uniquenessConstraints: [["name"]])
    ])

    static func container(_ url: URL, readOnly: Bool = false) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Memos", managedObjectModel: model)
        var description = PersistentStoreDescription(url: url)
        description.persistentHistoryTracking = true
        description.isReadOnly = readOnly
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    /// Seeded dates: whole seconds, sub-microsecond fractions, far past and future, the issue's.
    static func dates(count: Int) -> [Date] {
        var generator = SeededGenerator(seed: seed)
        var dates = [
            Date(timeIntervalSinceReferenceDate: 733_310_130.4938267), Date(timeIntervalSinceReferenceDate: 0),
        ]
        while dates.count < count {
            let scale = [1.0, 1e3, 1e6, 1e9, 3e10].randomElement(using: &generator)!
            var seconds = Double.random(in: -scale...scale, using: &generator)
            if Bool.random(using: &generator) {
                seconds = seconds.rounded() + Double.random(in: 0..<1e-6, using: &generator)
            }
            dates.append(Date(timeIntervalSinceReferenceDate: seconds))
        }
        return dates
    }

    static func python(_ script: String, _ url: URL) throws -> [String] {
        String(decoding: try PythonTools.run(script, input: Data(url.path.utf8)), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    /// Saves a jotting `m<index>` per date in a store at `url`, then runs `then` in the context.
    static func save(
        _ dates: [Date], into url: URL, then: (ManagedObjectContext) throws -> Void = { _ in }
    ) throws {
        let context = try container(url).newBackgroundContext()
        try context.performAndWait {
            for (index, date) in dates.enumerated() {
                let memo = Jotting(context: context)
                memo.name = "m\(index)"
                memo.at = date
            }
            try context.save()
            try then(context)
        }
    }

    @Test func aDateComesBackBitForBitAndIsStoredAsSecondsSince2001() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("memos.sqlite")
        let dates = Self.dates(count: 200)
        try Self.save(dates, into: url)
        let context = try Self.container(url).newBackgroundContext()
        let read = try context.performAndWait {
            Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<Jotting>()).map { ($0.name, $0.at) })
        }
        // The column, as Python's sqlite3 reads it: the double's bits.
        let stored = try Self.python(
            """
            import sqlite3, struct, sys
            for name, at in sqlite3.connect(sys.stdin.read()).execute('SELECT name, "at" FROM Jotting'):
                print(name, struct.unpack('<Q', struct.pack('<d', at))[0])
            """, url)
        let bits = Dictionary(
            uniqueKeysWithValues: stored.map { line in
                let parts = line.split(separator: " ")
                return (String(parts[0]), UInt64(parts[1])!)
            })
        var differ: [String] = []
        for (index, date) in dates.enumerated() {
            let want = date.timeIntervalSinceReferenceDate.bitPattern
            if read["m\(index)"]?.timeIntervalSinceReferenceDate.bitPattern != want || bits["m\(index)"] != want {
                differ.append("m\(index): \(date.timeIntervalSinceReferenceDate)")
            }
        }
        #expect(
            differ.isEmpty, "ECBRATES_SEED=\(Self.seed): \(differ.count) of \(dates.count) differ: \(differ.prefix(5))")
        // A predicate on a date finds it exactly.
        for index in [0, 7, 99] {
            let date = dates[index]
            let found = try context.performAndWait {
                try context.fetch(FetchRequest<Jotting>(predicate: #Predicate { $0.at == date })).map(\.name)
            }
            #expect(found == ["m\(index)"], "ECBRATES_SEED=\(Self.seed)")
        }
    }

    @Test func aStoreCountingFrom1970IsUpgradedOnItsFirstWritableOpen() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("memos.sqlite")
        let dates = Self.dates(count: 40)
        try Self.save(dates, into: url) { context in
            context.delete(try context.fetch(FetchRequest<Jotting>(predicate: #Predicate { $0.name == "m0" }))[0])
            try context.save()
        }
        // Written back as format 1 wrote it, in Python: seconds since 1970 in the tables and the
        // tombstones, now() from 1970 in the triggers. It prints what an upgrade must leave:
        // each 1970 value less 978307200, in the same IEEE arithmetic.
        let expected = try Self.python(
            """
            import sqlite3, struct, sys
            db = sqlite3.connect(sys.stdin.read())
            bits = lambda x: struct.unpack('<Q', struct.pack('<d', x))[0]
            db.execute('UPDATE Jotting SET "at" = "at" + 978307200.0, touched = touched + 978307200.0')
            db.execute("UPDATE Z_HISTORYTOMBSTONE SET ZVALUE = ZVALUE + 978307200.0 WHERE ZNAME = 'at'")
            for name, sql in db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall():
                db.execute('DROP TRIGGER "%s"' % name)
                db.execute(sql.replace("2451910.5", "2440587.5"))
            db.execute('UPDATE Z_METADATA SET Z_VERSION = 1')
            db.commit()
            for name, at in db.execute('SELECT name, "at" FROM Jotting'):
                print(name, bits(at - 978307200.0))
            for (value,) in db.execute("SELECT ZVALUE FROM Z_HISTORYTOMBSTONE WHERE ZNAME = 'at'"):
                print('tombstone', bits(value - 978307200.0))
            """, url)
        #expect(expected.count == dates.count, "\(expected)")
        let before = try Data(contentsOf: url)
        do {
            _ = try Self.container(url, readOnly: true)
            Issue.record("a read-only open of a format-1 store")
        } catch {
            #expect(
                "\(error)".contains(
                    "must be migrated (its dates become seconds since 2001, as Core Data stores them (store format 2))"),
                "\(error)")
        }
        #expect(try Data(contentsOf: url) == before, "the read-only open changed nothing")

        let context = try Self.container(url).newBackgroundContext()
        let (read, tombstones) = try context.performAndWait { () throws -> ([String], [String]) in
            let memos = try context.fetch(FetchRequest<Jotting>()).map {
                "\($0.name) \($0.at.timeIntervalSinceReferenceDate.bitPattern)"
            }
            let history =
                try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?))
                .transactions ?? []
            let tombstones = history.flatMap { $0.changes ?? [] }.compactMap { change -> String? in
                guard case .date(let at)? = change.tombstone?["at"] else { return nil }
                return "tombstone \(at.timeIntervalSinceReferenceDate.bitPattern)"
            }
            return (memos, tombstones)
        }
        #expect(Set(read + tombstones) == Set(expected), "ECBRATES_SEED=\(Self.seed)")
        #expect(tombstones.count == 1)
        let version = try Self.python(
            "import sqlite3, sys; print(sqlite3.connect(sys.stdin.read()).execute('SELECT Z_VERSION FROM Z_METADATA').fetchone()[0])",
            url)
        #expect(version == ["2"] as [String])
        // now() counts from 2001 again: a save stamps the time of the save.
        let stamped = try context.performAndWait { () -> Date? in
            let memo = try context.fetch(FetchRequest<Jotting>(predicate: #Predicate { $0.name == "m1" }))[0]
            memo.at = .now
            try context.save()
            return memo.touched
        }
        #expect(abs((stamped ?? .distantPast).timeIntervalSinceNow) < 60, "\(String(describing: stamped))")
    }
}
