import ManagedStore

/// The model of an ecbrates store: the rates, the import runs, the corrections, and the feeds'
/// fetch state.
///
/// Version 2 records which run first stored each rate and every correction a run made, so that
/// a query can answer as of an earlier moment (`--as-of`). Version 3 (this one) records the
/// first day an import was asked for (`--from`), so that a store that begins later than the
/// ECB's history because it was asked to is told from one whose early years are missing. A
/// store of an earlier version is migrated when it is first opened, by ManagedStore's
/// lightweight migration: the new columns and table are added, every row is kept, and the runs
/// of version 1 are marked as not recording (`recordsChanges` false).
public enum RatesModel {
    /// The rates: unique on (date, currencySymbol), whose index serves lookups by day and by day
    /// range; indexed on (currencySymbol, date) for one currency over many days (a series over
    /// 27 years reads 7,000 index entries instead of 221,000). Keeping that second index in
    /// order doubles what each insert costs, so an import into an empty store builds it at the
    /// end (``RateImporter``).
    public static let rate = EntityDescription(
        name: "Eurofxrefhist", managedObjectClass: Eurofxrefhist.self,
        attributes: [
            AttributeDescription(name: "date", type: .day),
            AttributeDescription(name: "currencySymbol", type: .string),
            AttributeDescription(name: "exchangeRate", type: .decimal),
        ],
        relationships: [
            .toOne("importRun", destination: "ImportRun", inverse: "storedRates"),
            .toMany("corrections", destination: "RateCorrection", inverse: "rate", deleteRule: .cascade),
        ],
        uniquenessConstraints: [["date", "currencySymbol"]], indexes: [["currencySymbol", "date"]])

    /// One record per import.
    public static let importRun = EntityDescription(
        name: "ImportRun", managedObjectClass: ImportRun.self,
        attributes: [
            AttributeDescription(name: "source", type: .string),
            AttributeDescription(name: "startedAt", type: .date),
            AttributeDescription(name: "finishedAt", type: .date, isOptional: true),
            AttributeDescription(name: "outcomeText", type: .string),
            AttributeDescription(name: "processID", type: .integer64),
            AttributeDescription(name: "days", type: .integer64, defaultValue: .integer(0)),
            AttributeDescription(name: "rates", type: .integer64, defaultValue: .integer(0)),
            AttributeDescription(name: "inserted", type: .integer64, defaultValue: .integer(0)),
            AttributeDescription(name: "corrected", type: .integer64, defaultValue: .integer(0)),
            AttributeDescription(name: "unchanged", type: .integer64, defaultValue: .integer(0)),
            AttributeDescription(name: "errorMessage", type: .string, isOptional: true),
            AttributeDescription(name: "recordsChanges", type: .boolean, defaultValue: .boolean(false)),
            AttributeDescription(name: "requestedFrom", type: .day, isOptional: true),
        ],
        relationships: [
            .toMany("storedRates", destination: "Eurofxrefhist", inverse: "importRun", deleteRule: .deny),
            .toMany("corrections", destination: "RateCorrection", inverse: "run", deleteRule: .deny),
        ],
        indexes: [["startedAt"]])

    /// One record per correction of a stored rate.
    public static let correction = EntityDescription(
        name: "RateCorrection", managedObjectClass: RateCorrection.self,
        attributes: [
            AttributeDescription(name: "oldRate", type: .decimal),
            AttributeDescription(name: "newRate", type: .decimal),
        ],
        relationships: [
            .toOne("rate", destination: "Eurofxrefhist", inverse: "corrections", isOptional: false),
            .toOne("run", destination: "ImportRun", inverse: "corrections", isOptional: false),
        ],
        indexes: [["rate"], ["run"]])

    /// The validators of each URL fetched.
    public static let feedState = EntityDescription(
        name: "FeedState", managedObjectClass: FeedState.self,
        attributes: [
            AttributeDescription(name: "url", type: .string),
            AttributeDescription(name: "etag", type: .string, isOptional: true),
            AttributeDescription(name: "lastModified", type: .string, isOptional: true),
            AttributeDescription(name: "checkedAt", type: .date),
        ],
        uniquenessConstraints: [["url"]])

    /// `rates(day, currency, rate)`: one row per stored rate, the day as `YYYY-MM-DD`, the
    /// currency's ISO 4217 code, and the rate per euro as text, exactly as the ECB published
    /// it (`1.0811`, `161.2`: never a binary float). The stable interface for other programs
    /// (docs/store.md); the tables under it may change with the model, this view may not.
    public static let ratesView = ViewDescription(
        name: "rates",
        select: #"""
            SELECT date(r."date", 'unixepoch') AS day, r."currencySymbol" AS currency, r."exchangeRate" AS rate \#
            FROM "Eurofxrefhist" AS r
            """#)

    /// (A `.date` column holds seconds since 2001, as Core Data's do; `+ 978307200` counts them
    /// from 1970 for SQLite's `unixepoch`. A `.day` column holds seconds since 1970.)
    ///
    /// `imports(id, source, started_at, finished_at, outcome, days, rates, inserted, corrected,
    /// unchanged, error, process_id, requested_from)`: one row per import, times in UTC as
    /// ISO 8601 (`2026-11-25T15:30:00.123Z`), `outcome` one of `running`, `succeeded`, `failed`,
    /// `not modified`, `interrupted`.
    public static let importsView = ViewDescription(
        name: "imports",
        select: #"""
            SELECT i.Z_PK AS id, i."source" AS source, \#
            strftime('%Y-%m-%dT%H:%M:%fZ', i."startedAt" + 978307200, 'unixepoch') AS started_at, \#
            strftime('%Y-%m-%dT%H:%M:%fZ', i."finishedAt" + 978307200, 'unixepoch') AS finished_at, \#
            i."outcomeText" AS outcome, i."days" AS days, i."rates" AS rates, i."inserted" AS inserted, \#
            i."corrected" AS corrected, i."unchanged" AS unchanged, i."errorMessage" AS error, \#
            i."processID" AS process_id, date(i."requestedFrom", 'unixepoch') AS requested_from \#
            FROM "ImportRun" AS i
            """#)

    /// `corrections(day, currency, old_rate, new_rate, import_id, corrected_at)`: one row per
    /// rate the ECB corrected after it was stored, with the import (`imports.id`) that stored
    /// the correction and when that import finished (as `ecbrates corrections` says; the start
    /// while it runs).
    public static let correctionsView = ViewDescription(
        name: "corrections",
        select: #"""
            SELECT date(r."date", 'unixepoch') AS day, r."currencySymbol" AS currency, c."oldRate" AS old_rate, \#
            c."newRate" AS new_rate, c."run" AS import_id, \#
            strftime('%Y-%m-%dT%H:%M:%fZ', coalesce(i."finishedAt", i."startedAt") + 978307200, 'unixepoch') AS corrected_at \#
            FROM "RateCorrection" AS c JOIN "Eurofxrefhist" AS r ON r.Z_PK = c."rate" \#
            JOIN "ImportRun" AS i ON i.Z_PK = c."run"
            """#)

    /// The model.
    public static let model = ManagedObjectModel(
        entities: [rate, importRun, feedState, correction], views: [ratesView, importsView, correctionsView])
}
