import ECBRates

/// The inputs of a question (``Question/fields``), or of any set of fields (``FieldSet``: an
/// export's), declared by one property: each field becomes
/// an option, a flag or a positional argument of the command, with the field's help, and the
/// parser fills in its typed value. The command then asks the question:
///
/// ```swift
/// @Asked(RateQuestion.self) var asked: QuestionInput
/// …
/// let question = try QuerySupport.question(RateQuestion.self, asked)
/// ```
@propertyWrapper
struct Asked<Q: FieldSet>: Sendable {
    private let box: InputBox<QuestionInput>

    /// The values given, parsed.
    var wrappedValue: QuestionInput { box.value }

    /// The fields of `Q`, declared in its order; with `argumentsOptional`, its positional
    /// arguments may be left out on the command line (`convert --input` takes none), and the
    /// question says what is missing.
    init(_: Q.Type, argumentsOptional: Bool = false) {
        let box = InputBox(QuestionInput())
        self.box = box
        for field in Q.fields {
            let kind: InputDeclaration.Kind
            switch (field.placement, field.kind) {
            case (.argument, _): kind = .argument(optional: argumentsOptional || !field.isRequired, repeating: false)
            case (.option, .flag): kind = .flag
            case (.option, _): kind = .option(value: field.valueName)
            }
            let completion: ValueCompletion =
                switch field.kind {
                case .currency, .currencies: .currencies
                default: .none
                }
            DeclarationCollector.register(
                InputDeclaration(
                    name: field.placement == .argument ? field.name : field.optionName,
                    help: field.help(for: .commandLine), kind: kind, choices: field.choices, completion: completion,
                    assign: { texts in
                        // An option given twice: the last; an argument: its word.
                        let text = field.placement == .argument ? texts.first : texts.last
                        guard let text else { return }
                        let value: FieldValue
                        do {
                            value = field.kind == .flag ? .flag(true) : try field.parse(text)
                        } catch let refusal as QuestionRefusal {
                            throw UsageError(refusal.message(for: .commandLine), code: refusal.code)
                        }
                        box.update { $0.set(field.name, value) }
                    }, wasRead: { box.wasRead }))
        }
    }
}
