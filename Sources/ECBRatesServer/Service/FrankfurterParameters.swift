import ECBRates

/// Frankfurter's query parameters, read as the fields of ecbrates' questions: each of
/// Frankfurter's names (`symbols` or `to`) stands for one question field (`currencies`), parsed
/// and checked by that field, so that a v1 or v2 request becomes the same question value as
/// `/api/`'s, and is refused in Frankfurter's words (`parameter symbols=U$D is invalid: …`).
struct FrankfurterParameters {
    /// One of Frankfurter's parameters: its names (the first is the one refusals use) and the
    /// question field it gives a value to.
    struct Name {
        /// Frankfurter's names for it, the main one first.
        let names: [String]
        /// The field it gives a value to.
        let field: QuestionField

        init(_ names: String..., field: QuestionField) {
            self.names = names
            self.field = field
        }
    }

    /// The values of `request`'s query for `names`, keyed by their fields' names; a parameter
    /// none of them has is refused (except those in `handled`, which the caller reads itself),
    /// as is one given twice or under two of its names.
    static func input(
        _ request: HTTPRequest, _ names: [Name], handled: Set<String> = []
    ) throws(QuestionRefusal) -> QuestionInput {
        try input(request.query, names, handled: handled)
    }

    /// The values of `query` for `names`, read as a request's query is (above).
    static func input(
        _ query: [(name: String, value: String)], _ names: [Name], handled: Set<String> = []
    ) throws(QuestionRefusal) -> QuestionInput {
        let fields = names.map { $0.field.renamed($0.names[0], aliases: Array($0.names.dropFirst())) }
        let parameters = query.filter { !handled.contains($0.name) }
        let read = try QuestionInput.reading(fields, parameters: parameters)
        var input = QuestionInput()
        for name in names {
            if let value = read.values[name.names[0]] { input.set(name.field.name, value) }
        }
        return input
    }
}
