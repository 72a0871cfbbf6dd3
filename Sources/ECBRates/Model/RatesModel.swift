import ManagedStore

/// The model of an ecbrates store: the rates, the import runs, and the feeds' fetch state.
public enum RatesModel {
    /// The rates: unique on (date, currencySymbol), whose index also serves lookups by day and
    /// by day range. A second index on (currencySymbol, date) would speed one currency's series
    /// over many years, but doubles what every insert costs SQLite (measured, `scripts/bench`).
    public static let rate = EntityDescription(
        name: "Eurofxrefhist", managedObjectClass: Eurofxrefhist.self,
        attributes: [
            AttributeDescription(name: "date", type: .date),
            AttributeDescription(name: "currencySymbol", type: .string),
            AttributeDescription(name: "exchangeRate", type: .decimal),
        ],
        uniquenessConstraints: [["date", "currencySymbol"]])

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
        ],
        indexes: [["startedAt"]])

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

    /// The model.
    public static let model = ManagedObjectModel(entities: [rate, importRun, feedState])
}
