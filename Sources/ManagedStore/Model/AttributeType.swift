/// The type of an entity's attribute, and so of its column in the store.
///
/// | type | Swift type | stored as |
/// |---|---|---|
/// | `.string` | `String` | TEXT |
/// | `.integer16/32/64` | `Int16`, `Int32`, `Int64` or `Int` | INTEGER |
/// | `.double` | `Double` | REAL |
/// | `.decimal` | `Decimal` | TEXT, the exact decimal (`1.179`), compared by value |
/// | `.boolean` | `Bool` | INTEGER 0 or 1 |
/// | `.date` | `Date` | REAL, seconds since 1970-01-01 00:00 UTC |
/// | `.binaryData` | `Data` | BLOB |
/// | `.uuid` | `UUID` | BLOB of 16 bytes |
public enum AttributeType: String, Sendable, Hashable, CaseIterable {
    case string, integer16, integer32, integer64, double, decimal, boolean, date, binaryData, uuid

    /// The SQLite column type used for this attribute type.
    var sqlType: String {
        switch self {
        case .string, .decimal: return "TEXT"
        case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
        case .double, .date: return "REAL"
        case .binaryData, .uuid: return "BLOB"
        }
    }
}
