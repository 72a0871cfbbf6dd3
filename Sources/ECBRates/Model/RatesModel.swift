import ManagedStore

/// The model of an ecbrates store: the rates, the import runs, and the feeds' fetch state.
public enum RatesModel {
    /// The rates: unique on (date, currencySymbol), whose index serves lookups by day and by day
    /// range; indexed on (currencySymbol, date) for one currency over many days (a series over
    /// 27 years reads 7,000 index entries instead of 221,000). Keeping that second index in
    /// order doubles what each insert costs, so an import into an empty store builds it at the
    /// end (``RateImporter``).
    public static let rate = EntityDescription(
        name: "Eurofxrefhist", managedObjectClass: Eurofxrefhist.self,
        attributes: [
            AttributeDescription(name: "date", type: .date),
            AttributeDescription(name: "currencySymbol", type: .string),
            AttributeDescription(name: "exchangeRate", type: .decimal),
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
