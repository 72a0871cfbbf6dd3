/// The JSON Schema of a field's value: the one place a field's kind becomes a schema, for every
/// door that publishes one (an MCP tool's `inputSchema`, a parameter of the OpenAPI document).
extension QuestionField {
    /// The schema of this field's value as `door` takes it: over MCP a JSON value (a list of codes
    /// or one comma-separated string; an amount as a string or a number), on `/api/` a query
    /// parameter's text. The default, when there is one, is in it; a description is the door's
    /// help when `describing`.
    public func valueSchema(for door: Door, describing: Bool = false) -> JSONText {
        let code = "[A-Za-z]{3}"
        var schema: [(String, JSONText)]
        switch kind {
        case .currency:
            schema = [("type", .string("string")), ("pattern", .string("^\(code)$"))]
        case .currencies where door == .mcp:
            schema = [
                ("type", .array([.string("array"), .string("string")])),
                ("items", .object([("type", .string("string")), ("pattern", .string("^\(code)$"))])),
            ]
        case .currencies:
            // A query parameter's list, comma-separated (OpenAPI's style form, not exploded),
            // each code once.
            schema = [
                ("type", .string("array")),
                ("items", .object([("type", .string("string")), ("pattern", .string("^\(code)$"))])),
                ("minItems", .number(1)), ("uniqueItems", .bool(true)),
            ]
        case .day:
            schema = [("type", .string("string")), ("format", .string("date"))]
        case .moment:
            // A day or an ISO 8601 time with its zone (AsOfMoment.parse).
            schema = [
                ("type", .string("string")),
                (
                    "anyOf",
                    .array([.object([("format", .string("date"))]), .object([("format", .string("date-time"))])])
                ),
            ]
        case .amount where door == .mcp:
            schema = [("type", .array([.string("string"), .string("number")]))]
        case .amount:
            schema = [("type", .string("string")), ("pattern", .string("^-?[0-9]+(\\.[0-9]+)?$"))]
        case .count(let minimum, let maximum):
            schema = [
                ("type", .string("integer")), ("minimum", .number(Double(minimum))),
                ("maximum", .number(Double(maximum))),
            ]
        case .choice(let words):
            schema = [("type", .string("string")), ("enum", .array(words.map { .string($0) }))]
        case .flag:
            schema = [("type", .string("boolean"))]
        }
        if describing { schema.append(("description", .string(help(for: door)))) }
        if let value = defaultText {
            schema.append(("default", kind == .flag ? .bool(value == "true") : .string(value)))
        }
        return .object(schema)
    }
}
