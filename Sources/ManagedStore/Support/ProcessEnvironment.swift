import Foundation

/// One variable of the process's environment, read with `getenv`.
///
/// Not `ProcessInfo.processInfo.environment`, which builds a dictionary of every variable at
/// each call: ManagedStore reads two variables, at a program's start.
enum ProcessEnvironment {
    /// The value of `name`, or nil when it is not set.
    static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
