import Foundation

/// A value as SQLite stores it, for binding statement arguments.
enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

extension AttributeValue {
    /// The value as the store writes it (see ``AttributeType`` for the mapping).
    var sqliteValue: SQLiteValue {
        switch self {
        case .null: return .null
        case .string(let value): return .text(value)
        case .integer(let value): return .integer(value)
        case .double(let value): return .real(value)
        case .decimal(let value): return .text(DecimalText.format(value))
        case .boolean(let value): return .integer(value ? 1 : 0)
        case .date(let value): return .real(value.timeIntervalSinceReferenceDate)
        case .day(let days): return .real(Double(days) * 86_400)
        case .binaryData(let value): return .blob(value)
        case .uuid(let value): return .blob(withUnsafeBytes(of: value.uuid) { Data($0) })
        case .object(let id):
            precondition(!id.isTemporaryID, "ManagedStore: \(id) is still temporary where a stored key is needed")
            return .integer(id.key)
        case .objects:
            preconditionFailure("ManagedStore: a to-many's members are no column's value")
        }
    }
}

extension SQLiteStatement {
    /// Binds `value` to the 1-based parameter `index`.
    func bind(_ value: SQLiteValue, _ index: Int32) throws {
        switch value {
        case .null: try bindNull(index)
        case .integer(let value): try bind(value, index)
        case .real(let value): try bind(value, index)
        case .text(let value): try bind(value, index)
        case .blob(let value): try bind(value, index)
        }
    }

    /// Binds an attribute value to the 1-based parameter `index`, as the store holds its type.
    ///
    /// The same mapping as ``AttributeValue/sqliteValue``, written out again because every
    /// inserted value passes here: binding directly measured 2–4% faster on the insert bench than
    /// going through `sqliteValue` (alternating runs, `scripts/bench --only insert`).
    func bind(_ value: AttributeValue, _ index: Int32) throws {
        switch value {
        case .null: try bindNull(index)
        case .string(let value): try bind(value, index)
        case .integer(let value): try bind(value, index)
        case .double(let value): try bind(value, index)
        case .decimal(let value): try bind(DecimalText.format(value), index)
        case .boolean(let value): try bind(Int64(value ? 1 : 0), index)
        case .date(let value): try bind(value.timeIntervalSinceReferenceDate, index)
        case .day(let days): try bind(Double(days) * 86_400, index)
        case .binaryData(let value): try bind(value, index)
        case .uuid, .object, .objects: try bind(value.sqliteValue, index)
        }
    }

    /// Reads the 0-based `column` as an attribute of `type`; a to-one relationship's column
    /// (`.objectID`) needs the `destination` entity and its `store`, and so does a reference
    /// to a value with external storage (read from its file; throws when it cannot be).
    func attributeValue(
        _ column: Int32, type: AttributeType, destination: EntityDescription? = nil,
        store: PersistentStore? = nil
    ) throws -> AttributeValue {
        if isNull(column) { return .null }
        switch type {
        case .objectID:
            guard let destination, let store else {
                preconditionFailure("ManagedStore: a relationship's column was read without its destination")
            }
            return .object(ManagedObjectID(entity: destination, store: store, primaryKey: int64(column)))
        case .string, .uri: return .string(text(column))
        case .integer16, .integer32, .integer64: return .integer(int64(column))
        case .double: return .double(double(column))
        case .decimal:
            if columnType(column) == SQLITE_TEXT_TYPE, let decimal = DecimalText.parse(text(column)) {
                return .decimal(decimal)
            }
            return .decimal(DecimalText.parse(String(double(column))) ?? Decimal(double(column)))
        case .boolean: return .boolean(int64(column) != 0)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: double(column)))
        case .day: return .day(Int((double(column) / 86_400).rounded(.down)))
        case .binaryData, .transformable:
            if columnType(column) == SQLITE_TEXT_TYPE {
                let reference = text(column)
                guard let store else {
                    throw ManagedStoreError.externalDataUnreadable(
                        file: nil, reason: "'\(reference)' read without its store")
                }
                return .binaryData(try ExternalDataFiles(storeURL: store.url).read(reference))
            }
            return .binaryData(data(column))
        case .uuid:
            let bytes = data(column)
            guard bytes.count == 16 else { return .null }
            var uuid = UUID().uuid
            withUnsafeMutableBytes(of: &uuid) { $0.copyBytes(from: bytes) }
            return .uuid(UUID(uuid: uuid))
        }
    }
}

/// SQLite's type code for TEXT (`SQLITE_TEXT`, which Swift imports ambiguously).
let SQLITE_TEXT_TYPE: Int32 = 3
