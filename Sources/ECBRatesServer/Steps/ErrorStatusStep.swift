/// The one place an error becomes a status: a route's failure (``RouteFailure``) is answered
/// with the status the route gives it (``Route/status(of:)``: ours, or Frankfurter's) and the
/// error's one JSON shape (``ServiceError/response(status:_:code:)``), counted under the route.
struct ErrorStatusStep: ResponseStep {
    func respond(to request: HTTPRequest, in service: RateService, next: () throws -> Outgoing) throws -> Outgoing {
        do {
            return try next()
        } catch let failure as RouteFailure {
            let status = failure.route.status(of: failure.error)
            let response = ServiceError.response(
                status: status, ServiceError.message(of: failure.error),
                code: ServiceError.code(of: failure.error, status: status))
            return Outgoing(response, route: failure.route.name(request.path))
        }
    }
}

/// A route's handler failed: the route (whose way of choosing statuses applies) and the error.
struct RouteFailure: Error {
    /// The route asked.
    let route: Route
    /// What its handler threw.
    let error: any Error
}
