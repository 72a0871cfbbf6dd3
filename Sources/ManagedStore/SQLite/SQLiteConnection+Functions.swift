import CSQLite
import Foundation

extension SQLiteConnection {
    /// Registers the SQL functions the triggers of derived attributes call
    /// (``DerivedAttributeSQL``): Unicode case mappings and Core Data's canonical form, which
    /// SQLite's own `lower()` and `upper()` (ASCII only) do not give.
    static func registerFunctions(on handle: OpaquePointer) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        sqlite3_create_function_v2(handle, "managedstore_lowercase", 1, flags, nil, lowercaseFunction, nil, nil, nil)
        sqlite3_create_function_v2(handle, "managedstore_uppercase", 1, flags, nil, uppercaseFunction, nil, nil, nil)
        sqlite3_create_function_v2(handle, "managedstore_canonical", 1, flags, nil, canonicalFunction, nil, nil, nil)
        sqlite3_create_function_v2(handle, "managedstore_contains", 2, flags, nil, containsFunction, nil, nil, nil)
    }
}

/// A string function's result: NULL for NULL, else `transform` of the text.
private func applyText(
    _ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?, _ transform: (String) -> String
) {
    guard let argument = arguments?[0], sqlite3_value_type(argument) != SQLITE_NULL,
        let text = sqlite3_value_text(argument)
    else {
        sqlite3_result_null(context)
        return
    }
    let result = transform(String(cString: text))
    // SQLITE_TRANSIENT: SQLite copies the text before this returns.
    sqlite3_result_text(context, result, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
}

private func lowercaseFunction(
    _ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
) {
    applyText(context, arguments) { $0.lowercased() }
}

private func uppercaseFunction(
    _ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
) {
    applyText(context, arguments) { $0.uppercased() }
}

/// Core Data's `canonical:`: case and diacritics folded away.
private func canonicalFunction(
    _ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
) {
    applyText(context, arguments) { $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
}

/// `contains(_:)` of a `#Predicate` (`$0.title.contains("Peace")`): 1 when the first text holds
/// the second as Swift's `Collection.contains(_:)` finds it, Character by Character (what the
/// predicate's own `evaluate` answers; SQLite's `instr` compares bytes, and would find `e` in a
/// decomposed `é`); NULL for a NULL.
private func containsFunction(
    _ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
) {
    guard let haystack = arguments?[0], let needle = arguments?[1], sqlite3_value_type(haystack) != SQLITE_NULL,
        sqlite3_value_type(needle) != SQLITE_NULL, let text = sqlite3_value_text(haystack),
        let part = sqlite3_value_text(needle)
    else {
        sqlite3_result_null(context)
        return
    }
    sqlite3_result_int(context, collectionContains(String(cString: text), String(cString: part)) ? 1 : 0)
}

/// `Collection.contains(_:)`, as a predicate's `CollectionContainsCollection` calls it (generic,
/// so that Foundation's `StringProtocol.contains`, another search, is not the one chosen).
private func collectionContains<C: Collection>(_ base: C, _ other: C) -> Bool where C.Element: Equatable {
    base.contains(other)
}
