import Foundation

/// The process's environment, as a dictionary.
enum EnvironmentVariables {
    /// Every variable, read once from `environ` (the first of a name that appears twice, as
    /// `getenv` answers). Not `ProcessInfo.processInfo.environment`, which first sets up the
    /// whole ProcessInfo object and builds the dictionary again at each call: about 0.4 ms of
    /// every start (scripts/bench, "Process start").
    static func all() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}
