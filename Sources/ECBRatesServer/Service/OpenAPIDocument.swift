import ECBRates
import Foundation

/// The OpenAPI 3.1 document of `/api/`, made from the route table (``RateService/routes``, each
/// route's ``Route/openAPI``) and the ``Questions`` behind it: one `GET /api/<name>` per question
/// (and `POST /api/convert`, the batch conversion), its fields as query parameters, its answer's
/// JSON Schema, and the error statuses with their one shape. Served at `/api/openapi.json`, and written by `serve --print-openapi`
/// (the Debian package installs it as `/usr/share/ecbrates/openapi.json`).
package enum OpenAPIDocument {
    /// The document, for the server's `version`.
    package static func document(version: String) -> JSONText {
        // Every documented route of the route table, each of its methods: a path or a method
        // the table does not route cannot be documented, nor one it routes left out.
        var paths: [(path: String, methods: [(String, JSONText)])] = []
        for route in RateService.routes {
            for (path, operation) in route.openAPI() {
                let methods = route.methods.map { ($0.lowercased(), operation) }
                if let index = paths.firstIndex(where: { $0.path == path }) {
                    paths[index].methods += methods
                } else {
                    paths.append((path, methods))
                }
            }
        }
        // The questions' paths first, in their order, then the rest in the table's; GET before
        // POST within a path.
        let questions = Questions.all.map { "/api/\($0.name)" }
        let order = ["get", "post"]
        let documented: [(String, JSONText)] = paths.enumerated().sorted { left, right in
            (questions.firstIndex(of: left.element.path) ?? questions.count, left.offset)
                < (questions.firstIndex(of: right.element.path) ?? questions.count, right.offset)
        }
        .map { _, entry in
            let methods = entry.methods.enumerated().sorted { left, right in
                (order.firstIndex(of: left.element.0) ?? order.count, left.offset)
                    < (order.firstIndex(of: right.element.0) ?? order.count, right.offset)
            }
            return (entry.path, .object(methods.map(\.element)))
        }
        return .object([
            ("openapi", .string("3.1.0")),
            (
                "info",
                .object([
                    ("title", .string("ecbrates")), ("version", .string(version)),
                    (
                        "description",
                        .string(
                            "The European Central Bank's euro reference exchange rates from a local store, exact to the digit. Each operation is a question the command line (`ecbrates <name>`) and the MCP tool of the same name answer too, with the same JSON, warnings included. Frankfurter's v1 (`/latest`, `/YYYY-MM-DD`, …) and v2 (`/v2/…`) APIs are served beside it, as Frankfurter documents them."
                        )
                    ),
                    ("license", .object([("name", .string("MIT")), ("identifier", .string("MIT"))])),
                ])
            ),
            ("paths", .object(documented)),
            ("components", .object([("schemas", .object([("Error", AnswerSchema.serviceError)]))])),
        ])
    }

    /// `GET /api/openapi.json`: this document.
    static func selfOperation() -> JSONText {
        .object([
            ("operationId", .string("openapi")), ("summary", .string("This document")),
            (
                "responses",
                .object([
                    (
                        "200",
                        .object([
                            ("description", .string("The OpenAPI 3.1 document of /api/.")),
                            (
                                "content",
                                .object([
                                    ("application/json", .object([("schema", .object([("type", .string("object"))]))]))
                                ])
                            ),
                        ])
                    ),
                    ("304", .object([("description", .string("Not modified (If-None-Match)."))])),
                ])
            ),
        ])
    }

    /// `GET /api/<name>`.
    static func operation(_ question: any Question.Type) -> JSONText {
        // Aliases (`currency` for `currencies`) are taken, and named in the description, but are not
        // parameters of their own: the two given together are refused as one given twice, which a
        // document of independent parameters could not say.
        var parameters: [JSONText] = question.fields.map { field in
            parameter(
                field, name: field.name,
                description: field.aliases.isEmpty
                    ? nil
                    : field.help(for: .api) + " (Also taken as \(field.aliases.joined(separator: " or ")), not both.)")
        }
        parameters.append(parameter(NativeAPI.formatField, name: NativeAPI.formatField.name))
        let error: JSONText = .object([("$ref", .string("#/components/schemas/Error"))])
        let text: JSONText = .object([("schema", .object([("type", .string("string"))]))])
        func header(_ words: String, _ type: String = "string") -> JSONText {
            .object([("description", .string(words)), ("schema", .object([("type", .string(type))]))])
        }
        var responses: [(String, JSONText)] = [
            (
                "200",
                .object([
                    ("description", .string("The answer (with its warnings, in JSON).")),
                    (
                        "headers",
                        .object([
                            (
                                "ETag",
                                header(
                                    "Strong; the first 128 bits of the SHA-256 of the media type and the body (-gzip suffixed when gzipped): the same on every replica."
                                )
                            ),
                            (
                                "Last-Modified",
                                header(
                                    "When the ECB published the store's newest day, or the store recorded its newest correction if later."
                                )
                            ),
                            (
                                "Ecbrates-Warnings",
                                header(
                                    "With format csv or ndjson, the codes of the answer's warnings (stale-store, incomplete-answer, missing-currency), comma-separated; JSON has them in its warnings."
                                )
                            ),
                            (
                                "Cache-Control",
                                header(
                                    "public, max-age and stale-while-revalidate, stale-if-error: a day for days before the newest, else until the next publication."
                                )
                            ),
                        ])
                    ),
                    (
                        "content",
                        .object([
                            ("application/json", .object([("schema", question.answerSchema)])),
                            ("text/csv", text), ("application/x-ndjson", text),
                        ])
                    ),
                ])
            ),
            (
                "304",
                .object([("description", .string("Not modified: the copy the client has (If-None-Match) is current."))])
            ),
            (
                "400",
                failure(
                    "The question is wrong: a parameter's value, a missing or unknown parameter (code bad-parameter), an as-of moment in the future."
                )
            ),
        ]
        responses.append(
            (
                "404",
                failure(
                    "The store has no such answer: an unknown currency, a day outside the store or without the currency's rate."
                )
            ))
        responses.append(
            (
                "422",
                failure(
                    "Parameters each well-formed that together ask what has no answer (code conflicting-parameters: statistic without group, from after to), or an answer that cannot be exact (too many digits)."
                )
            ))
        responses.append(
            (
                "503",
                .object([
                    (
                        "description",
                        .string(
                            "The store cannot answer now: it is empty, lacks days the ECB has published (stale-store, incomplete-range), or was being written at the moment asked about; or (code busy, with Retry-After) the server is making as many ranges as it makes at once."
                        )
                    ),
                    ("headers", .object([("Retry-After", header("Seconds to wait (with code busy).", "integer"))])),
                    ("content", .object([("application/json", .object([("schema", error)]))])),
                ])
            ))
        return .object([
            ("operationId", .string(question.name)), ("summary", .string(question.title)),
            ("description", .string(question.summary)), ("parameters", .array(parameters)),
            ("responses", .object(responses)),
        ])
    }

    /// A failure's response: `words`, and the one error shape.
    static func failure(_ words: String) -> JSONText {
        .object([
            ("description", .string(words)),
            (
                "content",
                .object([
                    (
                        "application/json",
                        .object([("schema", .object([("$ref", .string("#/components/schemas/Error"))]))])
                    )
                ])
            ),
        ])
    }

    /// A query parameter for `field`, named `name`.
    static func parameter(_ field: QuestionField, name: String, description: String? = nil) -> JSONText {
        var fields: [(String, JSONText)] = [
            ("name", .string(name)), ("in", .string("query")),
            ("description", .string(description ?? field.help(for: .api))),
        ]
        if field.isRequired && name == field.name { fields.append(("required", .bool(true))) }
        if case .currencies = field.kind {
            // USD,GBP: one parameter, its items comma-separated.
            fields += [("style", .string("form")), ("explode", .bool(false))]
        }
        fields.append(("schema", field.valueSchema(for: .api)))
        return .object(fields)
    }
}
