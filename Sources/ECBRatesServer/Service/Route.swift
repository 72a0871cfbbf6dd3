import ECBRates
import Foundation

/// One entry of the server's route table (``RateService/routes``): which paths and methods it
/// takes, what it is (cacheable, heavy, whose error statuses), and the handler that answers it.
/// Routing, `Allow` and OPTIONS, 405s, ``RateService/weigh(_:)``, the answer cache, the mapping
/// of an error to its status and the OpenAPI document all read these entries, so a route is
/// declared once.
struct Route: Sendable {
    /// The paths a route takes.
    enum Paths: Sendable {
        /// Exactly this path.
        case exact(String)
        /// Every path under this prefix.
        case prefix(String)
        /// Every path no route before it took (Frankfurter's v1 at `/`).
        case rest

        func matches(_ path: String) -> Bool {
            switch self {
            case .exact(let exact): path == exact
            case .prefix(let prefix): path.hasPrefix(prefix)
            case .rest: true
            }
        }
    }

    /// How a refused request's status is chosen.
    enum Statuses: Sendable {
        /// Ours: the error's own status (``ServiceError/status(of:)``), 400 for a bad parameter.
        case ours
        /// Frankfurter's: a request it cannot read is 422, its validation status.
        case frankfurter
    }

    /// What a handler is given.
    struct Asked {
        /// The service asked.
        let service: RateService
        /// The request.
        let request: HTTPRequest
        /// The service's clock when it was asked.
        let now: Date
        /// `/api/`'s questions, on the service's store.
        let api: NativeAPI
    }

    /// The paths.
    let paths: Paths
    /// The methods it answers (`HEAD` with `GET`); OPTIONS is answered for every route.
    let methods: [String]
    /// The name the metrics count a refused request under, by path (a handler names its answers).
    let name: @Sendable (String) -> String
    /// Whether an answer may be kept by the answer cache and given again while the store is the same.
    var cacheable = true
    /// Whether a request is heavy (a range of days: bounded by `--max-heavy`), and the name it is
    /// counted under; nil: never heavy.
    var heavy: (@Sendable (HTTPRequest) -> String?)?
    /// How an error becomes a status.
    var statuses = Statuses.ours
    /// What the OpenAPI document (``OpenAPIDocument``) says of it: each path it serves, with the
    /// operation its methods perform there (none: it is not part of `/api/`'s document).
    var openAPI: @Sendable () -> [(path: String, operation: JSONText)] = { [] }
    /// The answer, and the name of the route that answered (for the metrics).
    let handler: @Sendable (Asked) throws -> (EndpointAnswer, String)

    /// Whether it takes `method` (GET's routes take HEAD).
    func takes(_ method: String) -> Bool {
        methods.contains(method) || (method == "HEAD" && methods.contains("GET"))
    }

    /// The status of `error`, refusing a request to this route.
    func status(of error: any Error) -> Int {
        let status = ServiceError.status(of: error)
        return statuses == .frankfurter && status == 400 ? 422 : status
    }

    /// The `Allow` header's value for `path` in `routes`: every method some route for the path takes.
    static func allowed(_ path: String, in routes: [Route]) -> String {
        var methods: [String] = []
        for route in routes where route.paths.matches(path) {
            for method in route.methods + (route.methods.contains("GET") ? ["HEAD"] : [])
            where !methods.contains(method) {
                methods.append(method)
            }
            if case .exact = route.paths { continue }
            break  // a prefix (or the rest) takes the path: no later route is asked
        }
        let order = ["GET", "HEAD", "POST"]
        return (methods.sorted { (order.firstIndex(of: $0) ?? 9) < (order.firstIndex(of: $1) ?? 9) } + ["OPTIONS"])
            .joined(separator: ", ")
    }
}
