import Foundation

/// Which store a command uses, and why: the one `--store` names, else `$ECBRATES_STORE`, else
/// the user's own (`$XDG_DATA_HOME/ecbrates/rates.sqlite`), else, when the user has none and
/// the system has one, the system-wide store the package's timer keeps
/// (`/var/lib/ecbrates/rates.sqlite`).
///
/// ```swift
/// let location = StoreLocation.resolve(option: nil, environment: ProcessInfo.processInfo.environment)
/// print(location.url.path, location.origin)
/// ```
public struct StoreLocation: Sendable, Equatable {
    /// Where a store's path came from.
    public enum Origin: String, Sendable {
        /// `--store`.
        case option
        /// `$ECBRATES_STORE`.
        case environment
        /// The user's default store, which exists (or is made by an import).
        case user
        /// The system-wide store, used because the user has no store of their own.
        case system
    }

    /// The store's file.
    public let url: URL
    /// Why this store.
    public let origin: Origin
    /// The user's default store: where their own store would be (for `.system`, the file that
    /// does not exist).
    public let userStore: URL

    /// The system-wide store: `$ECBRATES_SYSTEM_STORE`, else `/var/lib/ecbrates/rates.sqlite`.
    public static func systemStore(environment: [String: String]) -> URL {
        URL(
            fileURLWithPath: environment["ECBRATES_SYSTEM_STORE"].flatMap { $0.isEmpty ? nil : $0 }
                ?? "/var/lib/ecbrates/rates.sqlite")
    }

    /// The user's default store: `$XDG_DATA_HOME/ecbrates/rates.sqlite`, else
    /// `~/.local/share/ecbrates/rates.sqlite`.
    public static func userStore(environment: [String: String]) -> URL {
        RatesStore.baseDirectory("XDG_DATA_HOME", else: ".local/share", environment: environment)
            .appendingPathComponent("ecbrates/rates.sqlite")
    }

    /// The store for a command given `option` (`--store`; an empty one names the working
    /// directory, which the store refuses by name) in `environment`.
    public static func resolve(option: String?, environment: [String: String]) -> StoreLocation {
        let user = userStore(environment: environment)
        if let option {
            return StoreLocation(
                url: URL(fileURLWithPath: option.isEmpty ? "." : option), origin: .option, userStore: user)
        }
        if let path = environment["ECBRATES_STORE"], !path.isEmpty {
            return StoreLocation(url: URL(fileURLWithPath: path), origin: .environment, userStore: user)
        }
        let system = systemStore(environment: environment)
        if !FileManager.default.fileExists(atPath: user.path), FileManager.default.fileExists(atPath: system.path) {
            return StoreLocation(url: system, origin: .system, userStore: user)
        }
        return StoreLocation(url: user, origin: .user, userStore: user)
    }

    /// Why this store, in words: `from --store`, `the system-wide store: you have none at …`.
    public var reason: String {
        switch origin {
        case .option: return "from --store"
        case .environment: return "from ECBRATES_STORE"
        case .user: return "your default store"
        case .system: return "the system-wide store: you have none at \(userStore.path)"
        }
    }
}
