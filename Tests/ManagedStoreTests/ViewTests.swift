import Foundation
import ManagedStore
import TestSupport
import Testing

/// SQL views a model declares (``ViewDescription``): made with the store, kept in step with the
/// model by every process that writes it, carried through migrations, and read here by the
/// `sqlite3` command, as a program in another language would. Core Data has no counterpart
/// (its tables are private), so the behaviour pinned is ManagedStore's own, as documented on
/// ``ViewDescription``.
@Suite struct ViewTests {
    static let titles = ViewDescription(name: "titles", select: #"SELECT "title" AS title, "count" AS n FROM "Item""#)
    static let model = ManagedObjectModel(
        entities: [MigrationTests.item([MigrationTests.title, MigrationTests.count])], views: [titles])

    /// What `sqlite3` answers to `sql` on the store at `url` (rows of `|`-separated columns).
    static func sqlite3(_ url: URL, _ sql: String) throws -> String {
        let run = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), ["-readonly", url.path, sql],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "sqlite3: \(run.err)")
        return run.out
    }

    @Test func aNewStoreHasTheModelsViews() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        try MigrationTests.makeStore(url, model: Self.model)
        #expect(try Self.sqlite3(url, "SELECT title, n FROM titles ORDER BY title") == "a|1\nb|\nc|3\n")
    }

    @Test func aWriterMakesViewsAnOlderStoreLacksAndFollowsAChangedDefinition() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        try MigrationTests.makeStore(url)  // a model without views
        #expect(try Self.sqlite3(url, "SELECT count(*) FROM sqlite_master WHERE type = 'view'") == "0\n")
        _ = try MigrationTests.open(url, Self.model)
        #expect(try Self.sqlite3(url, "SELECT n FROM titles WHERE title = 'c'") == "3\n")

        let changed = ViewDescription(name: "titles", select: #"SELECT upper("title") AS title FROM "Item""#)
        _ = try MigrationTests.open(url, ManagedObjectModel(entities: Self.model.entities, views: [changed]))
        #expect(try Self.sqlite3(url, "SELECT title FROM titles ORDER BY title") == "A\nB\nC\n")

        // A view the model no longer has is dropped; one another program made is kept.
        _ = try Self.sqlite3Writing(url, #"CREATE VIEW mine AS SELECT "title" FROM "Item""#)
        _ = try MigrationTests.open(url, ManagedObjectModel(entities: Self.model.entities))
        #expect(try Self.sqlite3(url, "SELECT name FROM sqlite_master WHERE type = 'view'") == "mine\n")
    }

    static func sqlite3Writing(_ url: URL, _ sql: String) throws -> String {
        let run = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), [url.path, sql], environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "sqlite3: \(run.err)")
        return run.out
    }

    @Test func aReadOnlyOpenThatCouldWriteIsToldToMigrateAndOneThatCannotReadsOn() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        try MigrationTests.makeStore(url)
        #expect {
            _ = try MigrationTests.open(url, Self.model) { $0.isReadOnly = true }
        } throws: { error in
            guard case ManagedStoreError.storeNeedsMigration(_, let changes)? = error as? ManagedStoreError else {
                return false
            }
            return changes == ["view titles is missing"]
        }
        // Without automatic migration, the store is read as it is, without the views (a
        // process that cannot write the store does the same: see ECBRates' StoreViewTests,
        // which runs as another user).
        let container = try MigrationTests.open(url, Self.model) {
            $0.isReadOnly = true
            $0.shouldMigrateStoreAutomatically = false
        }
        #expect(try MigrationTests.rows(container, ["title"]).count == 3)
        #expect(try Self.sqlite3(url, "SELECT count(*) FROM sqlite_master WHERE type = 'view'") == "0\n")
    }

    @Test func aMigrationRemakesTheViewsOverTheNewTables() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        try MigrationTests.makeStore(url, model: Self.model)
        // Renaming the entity renames its table, which a view names: the view is made again
        // over the new table, in the migration's transaction.
        let renamed = MigrationTests.item(
            [
                MigrationTests.title, MigrationTests.count,
                AttributeDescription(name: "note", type: .string, isOptional: true),
            ],
            name: "Thing", renaming: "Item")
        let view = ViewDescription(name: "titles", select: #"SELECT "title" AS title, "count" AS n FROM "Thing""#)
        let container = try MigrationTests.open(url, ManagedObjectModel(entities: [renamed], views: [view]))
        #expect(try Self.sqlite3(url, "SELECT title, n FROM titles ORDER BY title") == "a|1\nb|\nc|3\n")
        _ = container
    }
}
