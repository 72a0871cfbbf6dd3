/// Every question, in the order the documents list them: the one list the doors are made from
/// (`/api/`'s routes, MCP's tools, the OpenAPI document).
public enum Questions {
    /// The questions.
    public static let all: [any Question.Type] = [
        RateQuestion.self, ConvertQuestion.self, LatestQuestion.self, SeriesQuestion.self, StatsQuestion.self,
        CurrenciesQuestion.self, CorrectionsQuestion.self, StatusQuestion.self,
    ]

    /// The question named `name`, if any.
    public static func named(_ name: String) -> (any Question.Type)? {
        all.first { $0.name == name }
    }
}
