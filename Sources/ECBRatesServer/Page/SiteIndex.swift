import ECBRates

/// `GET /` for a program (any `Accept` that does not put HTML first): the server's entry
/// points, so that a client or a person with curl finds the API from its root.
enum SiteIndex {
    /// The entry points, as JSON.
    static var json: JSONText {
        .object([
            ("name", .string("ecbrates")),
            (
                "description",
                .string(
                    "The European Central Bank's euro reference exchange rates, exact to the digit, from a local store."
                )
            ),
            ("page", .string("/ (with Accept: text/html)")),
            ("api", .object(Questions.all.map { ($0.name, .string("/api/\($0.name)")) })),
            ("openapi", .string("/api/openapi.json")),
            (
                "frankfurterV1",
                .array(["/latest", "/YYYY-MM-DD", "/YYYY-MM-DD..YYYY-MM-DD", "/currencies"].map { .string($0) })
            ),
            (
                "frankfurterV2",
                .array(["/v2/rates", "/v2/rate/{base}/{quote}", "/v2/currencies"].map { .string($0) })
            ),
            ("health", .string("/healthz")), ("metrics", .string("/metrics")),
        ])
    }
}
