import Foundation

/// A read-only SQL view the store creates beside its tables and keeps in step with the model:
/// a stable interface for programs in other languages, which need not know the tables.
///
/// Core Data has no counterpart: its tables are private. ManagedStore's are private too (they
/// may change with the model and its migrations), and a view is how the model offers a form
/// that does not:
///
/// ```swift
/// let rates = ViewDescription(
///     name: "rates",
///     select: #"SELECT date("date", 'unixepoch') AS day, "currencySymbol" AS currency FROM "Rate""#)
/// let model = ManagedObjectModel(entities: [rate], views: [rates])
/// ```
///
/// A process that opens the store for writing makes the store's views match the model's: a
/// view that is missing or whose `select` changed is made again, and a view ManagedStore made
/// that the model no longer has is dropped. A migration drops the views first and makes them
/// again after the tables have their new form, in its transaction, so a view never stands on
/// a column that is gone. Views are not part of a store's compatibility: a store whose views
/// differ is opened as it is, and a process that opens it read-only (and could write it) is
/// told that it needs a migration (``ManagedStoreError/storeNeedsMigration(url:changes:)``),
/// as for a model change. Views other programs made in the store are left alone.
public struct ViewDescription: Sendable, Hashable {
    /// The view's name (an SQL identifier; quoted as needed).
    public let name: String
    /// The `SELECT` statement that defines it, over the entities' tables (named after the
    /// entities) and columns (named after the attributes; `Z_PK` is the row's key).
    public let select: String

    /// A view named `name` defined by `select`.
    public init(name: String, select: String) {
        self.name = name
        self.select = select
    }

    /// The marker that tells a view ManagedStore made from one another program made: SQLite
    /// keeps a `CREATE VIEW` statement's text, comments included, in `sqlite_master`.
    static let marker = "/* ManagedStore view */"

    /// The statement that makes the view, as `sqlite_master` keeps it.
    var createSQL: String { "CREATE VIEW \(SQLiteConnection.quote(name)) \(Self.marker) AS \(select)" }
}
