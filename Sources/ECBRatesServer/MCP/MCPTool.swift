import ECBRates
import Foundation

/// One tool the MCP server offers: its name, what it does, the JSON Schema of its arguments,
/// and the `/api/` endpoint that answers it (so that a tool's answer is the API's, byte for byte).
struct MCPTool: Sendable {
    /// The tool's name (`rate`, `convert`, …).
    let name: String
    /// A short human title.
    let title: String
    /// What it answers, for the model choosing a tool.
    let description: String
    /// The JSON Schema of its arguments (an object).
    let inputSchema: JSONText
    /// The `/api/` endpoint that answers it.
    let endpoint: String

    /// The tool as `tools/list` describes it.
    var listing: JSONText {
        .object([
            ("name", .string(name)), ("title", .string(title)), ("description", .string(description)),
            ("inputSchema", inputSchema),
            ("annotations", .object([("readOnlyHint", .bool(true)), ("openWorldHint", .bool(false))])),
        ])
    }

    /// The tools, in the order `tools/list` gives them.
    static let all: [MCPTool] = [
        MCPTool(
            name: "rate", title: "Exchange rates on a day",
            description: """
                The ECB's euro reference rates of the given currencies (default: all) on a day (default: the \
                newest), against the euro or another base, with the ECB's exact digits. A day without a \
                publication (weekend, TARGET holiday) answers with the fallback's publication (default: the \
                previous one) and says which day it used.
                """,
            inputSchema: schema([
                ("currencies", currencies), ("date", day("The day asked about (default: the newest stored).")),
                ("base", currency("Quote against this currency (default: EUR).")), ("fallback", fallback),
                ("as_of", asOf),
            ]), endpoint: "rate"),
        MCPTool(
            name: "convert", title: "Convert an amount",
            description: """
                Converts an amount from one currency to another at the ECB's reference rate of a day (default: \
                the newest), exactly (or refused when it cannot be exact), saying which publication it used.
                """,
            inputSchema: schema(
                [
                    (
                        "amount",
                        .object([
                            ("type", .array([.string("string"), .string("number")])),
                            (
                                "description",
                                .string("The amount, like \"1234.56\" (a string keeps every digit).")
                            ),
                        ])
                    ),
                    ("from", currency("The currency of the amount.")), ("to", currency("The currency to convert to.")),
                    ("date", day("The day of the rate (default: the newest stored).")), ("fallback", fallback),
                    (
                        "precision",
                        .object([
                            ("type", .string("integer")), ("minimum", .number(0)),
                            ("description", .string("Decimal places of the result (default: the currency's).")),
                        ])
                    ), ("as_of", asOf),
                ], required: ["amount", "from", "to"]), endpoint: "convert"),
        MCPTool(
            name: "latest", title: "The newest rates",
            description: "The newest publication's rates of the given currencies (default: all).",
            inputSchema: schema([
                ("currencies", currencies), ("base", currency("Quote against this currency (default: EUR).")),
                ("as_of", asOf),
            ]), endpoint: "latest"),
        MCPTool(
            name: "series", title: "Rates over a range of days",
            description: """
                The rates of currencies on every publication from one day to another (default: the last year), \
                or one figure per week or month (mean, first, last, min or max).
                """,
            inputSchema: schema(
                [
                    ("currencies", currencies), ("from", day("The first day (default: a year before to).")),
                    ("to", day("The last day (default: the newest stored).")),
                    ("base", currency("Quote against this currency (default: EUR).")),
                    (
                        "group",
                        choice(
                            SeriesGrouper.Period.allCases.map(\.rawValue),
                            "One row per week, month, quarter or year (the mean of its days, or the statistic), with its count of days."
                        )
                    ),
                    (
                        "statistic",
                        choice(
                            SeriesGrouper.Statistic.allCases.map(\.rawValue), "The figure of a group (default: mean).")
                    ),
                    (
                        "partial",
                        .object([
                            ("type", .string("boolean")),
                            ("description", .string("Answer a range the store lacks days of, listing them.")),
                        ])
                    ), ("as_of", asOf),
                ], required: ["currencies"]), endpoint: "series"),
        MCPTool(
            name: "currencies", title: "Currencies in the store",
            description: "Every currency the store holds rates of, with its first and last day.",
            inputSchema: schema([]), endpoint: "currencies"),
        MCPTool(
            name: "status", title: "The store's state",
            description: "What the store holds, how far behind it is, its holes and its last import.",
            inputSchema: schema([]), endpoint: "status"),
    ]

    // MARK: Schema pieces

    private static func schema(_ properties: [(String, JSONText)], required: [String] = []) -> JSONText {
        var fields: [(String, JSONText)] = [("type", .string("object")), ("properties", .object(properties))]
        if !required.isEmpty { fields.append(("required", .array(required.map { .string($0) }))) }
        fields.append(("additionalProperties", .bool(false)))
        return .object(fields)
    }

    private static func currency(_ description: String) -> JSONText {
        .object([
            ("type", .string("string")), ("pattern", .string("^[A-Za-z]{3}$")), ("description", .string(description)),
        ])
    }

    private static let currencies: JSONText = .object([
        ("type", .array([.string("array"), .string("string")])),
        ("items", .object([("type", .string("string")), ("pattern", .string("^[A-Za-z]{3}$"))])),
        ("description", .string("ISO 4217 codes, like [\"USD\", \"JPY\"] (or \"USD,JPY\").")),
    ])

    private static func day(_ description: String) -> JSONText {
        .object([("type", .string("string")), ("format", .string("date")), ("description", .string(description))])
    }

    private static func choice(_ values: [String], _ description: String) -> JSONText {
        .object([
            ("type", .string("string")), ("enum", .array(values.map { .string($0) })),
            ("description", .string(description)),
        ])
    }

    private static let fallback = choice(
        RateFallback.allCases.map(\.rawValue), "What answers a day without a publication (default: previous).")

    private static let asOf: JSONText = .object([
        ("type", .string("string")),
        (
            "description",
            .string(
                "Answer as the store stood at this moment (a day, or an ISO 8601 time): before later imports and corrections."
            )
        ),
    ])
}
