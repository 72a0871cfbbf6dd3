/// The type of an entity's attribute, and so of its column in the store.
///
/// | type | Swift type | stored as |
/// |---|---|---|
/// | `.string` | `String` | TEXT |
/// | `.integer16/32/64` | `Int16`, `Int32`, `Int64` or `Int` | INTEGER |
/// | `.double` | `Double` | REAL |
/// | `.decimal` | `Decimal` | TEXT, the exact decimal (`1.179`), compared by value |
/// | `.boolean` | `Bool` | INTEGER 0 or 1 |
/// | `.date` | `Date` | REAL, seconds since 2001-01-01 00:00 UTC (`timeIntervalSinceReferenceDate`, as Core Data stores it: a `Date` comes back bit for bit) |
/// | `.day` | a calendar day (a type of yours conforming to ``AttributeRepresentable``, as ecbrates' `CalendarDay` does) | REAL, the seconds of its 00:00 UTC since 1970 (a `.date` attribute holding midnights migrates to `.day`) |
/// | `.uri` | `URL` (Core Data's URI attribute type) | TEXT, its `absoluteString` |
/// | `.binaryData` | `Data` | BLOB |
/// | `.uuid` | `UUID` | BLOB of 16 bytes |
/// | `.transformable` | a ``TransformableAttribute`` (any `Codable` value) | BLOB, its JSON |
/// | `.objectID` | a to-one ``Relationship``'s destination | INTEGER, the destination's key |
///
/// `.objectID` is the column of a to-one relationship: declare relationships with
/// ``RelationshipDescription``, not as attributes of this type.
public enum AttributeType: String, Sendable, Hashable, CaseIterable {
    case string, integer16, integer32, integer64, double, decimal, boolean, date, day, binaryData, uuid, transformable,
        objectID, uri

    /// The SQLite column type used for this attribute type.
    var sqlType: String {
        switch self {
        case .string, .decimal, .uri: return "TEXT"
        case .integer16, .integer32, .integer64, .boolean, .objectID: return "INTEGER"
        case .double, .date, .day: return "REAL"
        case .binaryData, .uuid, .transformable: return "BLOB"
        }
    }
}
