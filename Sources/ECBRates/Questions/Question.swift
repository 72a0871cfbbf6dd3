import EurofxrefFeed
import Foundation

/// A question ecbrates answers, as a value: its fields (declared once, each a ``Field``
/// property), their cross-checks (``check()``), and the function that answers it from the store. Every door is
/// derived from it: the command line's options, `/api/<name>`, the MCP tool `<name>` with its
/// input and output schemas, and the OpenAPI document; and every door gives the same answer,
/// warnings included, rendered by the answer's one renderer.
///
/// ```swift
/// var input = QuestionInput()
/// input.set("currencies", .currencies(["USD"]))
/// let question = try RateQuestion.asking(input)
/// let answered = try await store.read { try question.answer($0, context: QuestionContext()) }
/// print(answered.rendered(as: .json), terminator: "")
/// ```
public protocol Question: FieldSet {
    /// The answer's type.
    associatedtype Answer: RenderableAnswer
    /// Its name: the command, the `/api/` path and the MCP tool (`rate`).
    static var name: String { get }
    /// A short title (MCP's tool title, the OpenAPI operation's summary).
    static var title: String { get }
    /// What it answers, for a person or a model choosing it.
    static var summary: String { get }
    /// One sentence for a person at a terminal: the command's line in `ecbrates help` and its
    /// manual page's name line.
    static var abstract: String { get }
    /// More for that person (the command's help and manual page), when there is more to say.
    static var discussion: String? { get }
    /// The JSON Schema of its answer's JSON (``AnswerSchema``).
    static var answerSchema: JSONText { get }
    /// Whether an answer stays true while the store does not change (false: it depends on more,
    /// such as the store's file, and is not kept by a cache).
    static var isCacheable: Bool { get }
    /// Whether it reads a range of days (a series, its figures): the heavy requests a server
    /// bounds (`serve --max-heavy`), through every door that serves it.
    static var readsRange: Bool { get }

    /// The moment it is asked as of (`as_of`), if any: the door answers it from the store as it
    /// was then.
    var asOf: Date? { get }
    /// The last day it asks about, when it names one (`date`, `to`): an answer about days before
    /// the store's newest changes only by a correction, and a cache may keep it long; one about
    /// the newest day or later changes with the next publication.
    var lastDayAsked: CalendarDay? { get }

    /// The answer, with its warnings, from `queries` (on their context's queue).
    func answer(_ queries: RateQueries, context: QuestionContext) throws -> Answered<Answer>
}

extension Question {
    public static var isCacheable: Bool { true }
    public static var readsRange: Bool { false }
    public static var discussion: String? { nil }

    public var asOf: Date? { nil }
    public var lastDayAsked: CalendarDay? { nil }

    /// The field named `name` (a programmer's error if there is none).
    public static func field(_ name: String) -> QuestionField {
        guard let field = fields.first(where: { $0.name == name }) else {
            preconditionFailure("\(Self.self) has no field \(name)")
        }
        return field
    }

    /// ``answer(_:context:)``, saying the moment it is as of (``asOf``): what every door calls.
    /// The store is asked each thing once for the whole question (``RateQueries/answeringOnce(_:)``).
    public func answered(_ queries: RateQueries, context: QuestionContext) throws -> Answered<Answer> {
        var answered = try queries.answeringOnce { try answer(queries, context: context) }
        answered.asOf = asOf
        return answered
    }

    /// The stale-store warning, when the store lacks business days whose rates are out.
    static func staleWarning(_ queries: RateQueries) -> AnswerWarning? {
        guard let (newest, missing) = try? queries.missingBusinessDays() else { return nil }
        return .staleStore(newest: newest, missing: missing)
    }

}

extension FieldSet {
    /// A refusal when the day of `from` is after the day of `to`.
    static func checkRange(from: Field<CalendarDay?>, to: Field<CalendarDay?>) throws(QuestionRefusal) {
        guard let day = from.wrappedValue, let last = to.wrappedValue, day > last else { return }
        let (first, end) = (from.field, to.field)
        let (from, to) = (day, last)
        throw QuestionRefusal(
            .conflict { door in "\(door.label(first)) (\(from)) is after \(door.label(end)) (\(to))" })
    }
}

/// What a door knows that a question may need besides the store: which store it is, and why.
public struct QuestionContext: Sendable {
    /// The store's file.
    public var store: URL?
    /// How the store was chosen (what `status` says).
    public var storeLocation: StoreLocation?

    /// A context naming `store`, found at `storeLocation`.
    public init(store: URL? = nil, storeLocation: StoreLocation? = nil) {
        self.store = store
        self.storeLocation = storeLocation
    }
}

/// An answer and the warnings its reader must see with it (a stale store, missing days).
public struct Answered<Answer: RenderableAnswer>: Sendable {
    /// The answer.
    public var answer: Answer
    /// Its warnings, in the order they were found.
    public var warnings: [AnswerWarning]
    /// The moment it is as of, when the question asked as of one.
    public var asOf: Date?

    /// `answer` with `warnings` (nil ones left out).
    public init(_ answer: Answer, warnings: [AnswerWarning?] = []) {
        self.answer = answer
        self.warnings = warnings.compactMap { $0 }
    }

    /// The answer in `format`, its warnings in its JSON (``RenderableAnswer/rendered(as:warnings:)``)
    /// and, as of a moment, an `"asOf"` first key in its JSON object (as the command line writes it).
    public func rendered(as format: OutputFormat) -> String {
        let text = answer.rendered(as: format, warnings: warnings)
        guard format == .json, let asOf, text.hasPrefix("{") else { return text }
        return "{\"asOf\":\"\(AsOfMoment.text(asOf))\"," + text.dropFirst()
    }
}
