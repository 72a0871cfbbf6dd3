/// A step every request passes through on its way to its route and every answer on its way
/// back (Hummingbird's middleware): it may answer itself, or ask `next` (the steps inside it,
/// at their centre the route table) and change what comes back. ``RateService/steps`` lists
/// them, outermost first: ``CORSStep``, ``ErrorStatusStep``, ``ValidatorStep``,
/// ``CompressionStep``; each is written once and applies to every route.
protocol ResponseStep: Sendable {
    /// The answer to `request` of `service`: its own, or what `next` answers, changed.
    func respond(to request: HTTPRequest, in service: RateService, next: () throws -> Outgoing) throws -> Outgoing
}
