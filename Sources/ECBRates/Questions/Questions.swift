/// Every question, in the order the documents list them: the one list the doors are made from
/// (the command line's commands, `/api/`'s routes, MCP's tools, the OpenAPI document, the manual
/// pages and the completions).
public enum Questions {
    /// The questions ecbrates answers.
    public static let builtIn: [any Question.Type] = [
        RateQuestion.self, ConvertQuestion.self, LatestQuestion.self, SeriesQuestion.self, StatsQuestion.self,
        CurrenciesQuestion.self, CorrectionsQuestion.self, StatusQuestion.self,
    ]

    /// The questions every door offers: ``builtIn``, then those added for the task at hand
    /// (``adding(_:_:)``).
    public static var all: [any Question.Type] {
        let added = added
        return added.isEmpty ? builtIn : builtIn + added
    }

    /// Questions added for the current task and the tasks it starts.
    @TaskLocal static var added: [any Question.Type] = []

    /// Runs `body` with `questions` offered at every door it reaches in this task (and the
    /// tasks it starts): a program that embeds ecbrates's doors and asks questions of its own,
    /// or a test that checks a new question appears everywhere with nothing else written.
    public static func adding<R>(
        _ questions: [any Question.Type], _ body: () async throws -> R
    ) async rethrows -> R {
        try await $added.withValue(added + questions) { try await body() }
    }

    /// The same, for synchronous work.
    public static func adding<R>(_ questions: [any Question.Type], _ body: () throws -> R) rethrows -> R {
        try $added.withValue(added + questions) { try body() }
    }

    /// The question named `name`, if any.
    public static func named(_ name: String) -> (any Question.Type)? {
        all.first { $0.name == name }
    }
}
