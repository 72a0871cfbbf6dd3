import CMicroHTTPD
import Foundation

/// libmicrohttpd, loaded once, when the first ``HTTPDaemon`` starts.
enum MicroHTTPD {
    /// The table of loaded functions. `@unchecked Sendable`: `cmhd_load` fills it once, inside
    /// the `static let`'s one-time initialization; from then on it is only read.
    private struct Table: @unchecked Sendable {
        let pointer: UnsafePointer<cmhd_api>
    }

    /// The loaded functions, or why they could not be loaded.
    private static let loaded: Result<Table, ServeError> = {
        let api = UnsafeMutablePointer<cmhd_api>.allocate(capacity: 1)
        if let failure = cmhd_load(api) {
            api.deallocate()
            return .failure(.libraryMissing(String(cString: failure)))
        }
        return .success(Table(pointer: UnsafePointer(api)))
    }()

    /// The functions of libmicrohttpd; ``ServeError/libraryMissing(_:)`` when it is not installed.
    static func api() throws -> UnsafePointer<cmhd_api> {
        try loaded.get().pointer
    }
}
