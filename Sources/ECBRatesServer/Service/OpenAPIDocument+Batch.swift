import ECBRates

extension OpenAPIDocument {
    /// `POST /api/convert`: the batch conversion of a CSV body (``BatchEndpoint``), its parameters
    /// those that apply to every row.
    static func batchOperation() -> JSONText {
        let csv: JSONText = .object([("schema", .object([("type", .string("string"))]))])
        return .object([
            ("operationId", .string("convertBatch")),
            ("summary", .string("Convert the rows of a CSV")),
            (
                "description",
                .string(
                    "Converts each row of the CSV body (a header naming date, amount, from and to, then one row per conversion, each on its own day) and answers the CSV `ecbrates convert --input` writes: the input's columns, then rate, rate_day and result. The answer is streamed: a bad row within its first 64 KiB is a 422 naming the row's line; past them the answer is cut short (no last chunk) after a line `error: …` naming it. For one amount, GET /api/convert."
                )
            ),
            ("parameters", .array(ConvertBatch.fields.map { parameter($0, name: $0.name) })),
            (
                "requestBody",
                .object([
                    ("required", .bool(true)),
                    (
                        "description",
                        .string(
                            "CSV: a header with date, amount, from and to (in any order, other columns kept), then the rows, such as 2024-03-28,100,USD,JPY."
                        )
                    ),
                    (
                        "content",
                        .object([
                            (
                                "text/csv",
                                .object([
                                    ("schema", .object([("type", .string("string"))])),
                                    ("example", .string("date,amount,from,to\n2024-03-28,100,USD,JPY\n")),
                                ])
                            )
                        ])
                    ),
                ])
            ),
            (
                "responses",
                .object([
                    (
                        "200",
                        .object([
                            ("description", .string("The rows converted, as CSV (streamed when long).")),
                            ("content", .object([("text/csv", csv)])),
                        ])
                    ),
                    ("400", failure("A parameter is unknown, given twice, or not of its kind.")),
                    ("413", failure("The body is larger than the server takes (16 MiB by default).")),
                    (
                        "422",
                        failure(
                            "The body is not such a CSV, or a row cannot be converted (a bad day or amount, an unknown currency, no rate on its day): the message names the row's line."
                        )
                    ),
                    ("503", failure("The store cannot answer now (empty, or being written at the moment).")),
                ])
            ),
        ])
    }
}
