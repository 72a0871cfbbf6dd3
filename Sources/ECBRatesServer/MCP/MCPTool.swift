import ECBRates
import Foundation

/// One tool the MCP server offers: a ``Question``, its name, title and summary, the JSON Schema
/// of its arguments (made from the question's fields) and of its result (the answer's schema).
/// Nothing here is declared twice: a question added to ``Questions`` is a tool.
struct MCPTool: Sendable {
    /// The question it asks.
    let question: any Question.Type
    /// True when the answer's JSON is an array, not an object (read once, from its schema).
    let isList: Bool

    /// The tool asking `question`.
    init(_ question: any Question.Type) {
        self.question = question
        let schema = try? JSONSerialization.jsonObject(with: Data(question.answerSchema.text.utf8))
        isList = (schema as? [String: Any])?["type"] as? String == "array"
    }

    /// The tool's name (`rate`, `convert`, …): the question's.
    var name: String { question.name }

    /// The tools of the built-in questions, made once.
    static let builtIn = Questions.builtIn.map(MCPTool.init)
    /// A tool per question of ``Questions/all``, in the order `tools/list` gives them: the
    /// built-in ones, then any added.
    static var all: [MCPTool] {
        let added = Questions.all.dropFirst(Questions.builtIn.count)
        return added.isEmpty ? builtIn : builtIn + added.map(MCPTool.init)
    }

    /// The tool as `tools/list` describes it. Before the 2026-07-28 revision a result's
    /// `structuredContent` is an object, so a list answer is under the tool's name there, and
    /// the output schema says so.
    func listing(modern: Bool) -> JSONText {
        .object([
            ("name", .string(name)), ("title", .string(question.title)), ("description", .string(question.summary)),
            ("inputSchema", Self.inputSchema(question.fields)),
            (
                "outputSchema",
                modern || !isList ? question.answerSchema : AnswerSchema.object(named: name, question.answerSchema)
            ),
            ("annotations", .object([("readOnlyHint", .bool(true)), ("openWorldHint", .bool(false))])),
        ])
    }

    /// The JSON Schema of a tool's arguments: one property per field of the question.
    static func inputSchema(_ fields: [QuestionField]) -> JSONText {
        var schema: [(String, JSONText)] = [
            ("type", .string("object")), ("properties", .object(fields.map { ($0.name, Self.schema(of: $0)) })),
        ]
        let required = fields.filter(\.isRequired).map { JSONText.string($0.name) }
        if !required.isEmpty { schema.append(("required", .array(required))) }
        schema.append(("additionalProperties", .bool(false)))
        return .object(schema)
    }

    /// The JSON Schema of one field's value, as a JSON argument gives it (with its help).
    static func schema(of field: QuestionField) -> JSONText {
        field.valueSchema(for: .mcp, describing: true)
    }
}
