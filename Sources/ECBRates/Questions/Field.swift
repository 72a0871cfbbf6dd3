import EurofxrefFeed
import Foundation

/// A question's field as one of its properties: declared once, with its ``QuestionField``
/// (name, kind, help, placement), and typed by the property. A question's ``Question/fields``
/// are its `@Field` properties in declaration order (each says itself as the question's `init()`
/// makes it, as the command line's options do), and ``FieldSet/asking(_:)`` fills each from the input by its
/// field's name: no name is written twice, and a typo cannot silently give the default.
///
/// ```swift
/// public struct RateQuestion: Question {
///     @Field(.date) public var date: CalendarDay?
///     @Field(.base) public var base: CurrencyCode = .euro
///     public init() {}
/// }
/// ```
@propertyWrapper
public struct Field<Value: FieldValueConvertible>: Sendable, FieldDeclaration {
    /// The field.
    public let field: QuestionField
    /// Its value: the input's when the question was asked with one, else the default.
    public var wrappedValue: Value

    /// A field with a default value (used when the input has none).
    /// (Whether `Value` holds the field's kind is checked once, when the set's fields are first
    /// listed: ``FieldSet/fields``.)
    public init(wrappedValue: Value, _ field: QuestionField) {
        if let collector = FieldSetIndex.collecting {
            precondition(
                Value.accepts(field.kind), "field \(field.name) is a \(field.kind), which \(Value.self) cannot hold")
            collector.fields.withLock { $0.append(field) }
        }
        self.field = field
        self.wrappedValue = QuestionInput.beingRead?.values[field.name].flatMap(Value.init(fieldValue:)) ?? wrappedValue
    }
}

extension Field where Value: ExpressibleByNilLiteral {
    /// An optional field: nil when not given.
    public init(_ field: QuestionField) {
        self.init(wrappedValue: nil, field)
    }
}

/// What every ``Field`` is, whatever its type: what a `Mirror` of a set finds (a test's way to
/// read a set's values by field).
public protocol FieldDeclaration {
    /// The field.
    var field: QuestionField { get }
    /// Its value as a field's value (nil: none, the optional's nil).
    var fieldValue: FieldValue? { get }
}

extension Field {
    public var fieldValue: FieldValue? { wrappedValue.fieldValue }
}

/// A Swift type a field's value can be: it says which kinds it holds, and takes the parsed value.
public protocol FieldValueConvertible: Sendable {
    /// The value of `fieldValue`, or nil when it is of another kind.
    init?(fieldValue: FieldValue)
    /// Whether a field of `kind` fits it.
    static func accepts(_ kind: QuestionField.Kind) -> Bool
    /// It, as a field's value (nil: none).
    var fieldValue: FieldValue? { get }
}

extension Optional: FieldValueConvertible where Wrapped: FieldValueConvertible {
    public init?(fieldValue: FieldValue) {
        guard let value = Wrapped(fieldValue: fieldValue) else { return nil }
        self = .some(value)
    }
    public static func accepts(_ kind: QuestionField.Kind) -> Bool { Wrapped.accepts(kind) }
    public var fieldValue: FieldValue? { self?.fieldValue }
}

extension CurrencyCode: FieldValueConvertible {
    /// A currency code.
    public init?(fieldValue: FieldValue) {
        guard case .currency(let code) = fieldValue else { return nil }
        self = code
    }
    public static func accepts(_ kind: QuestionField.Kind) -> Bool { kind == .currency }
    public var fieldValue: FieldValue? { .currency(self) }
}

extension Array: FieldValueConvertible where Element == CurrencyCode {
    /// Currency codes.
    public init?(fieldValue: FieldValue) {
        guard case .currencies(let codes) = fieldValue else { return nil }
        self = codes
    }
    public static func accepts(_ kind: QuestionField.Kind) -> Bool { kind == .currencies }
    public var fieldValue: FieldValue? { .currencies(self) }
}

extension CalendarDay: FieldValueConvertible {
    public init?(fieldValue: FieldValue) {
        guard case .day(let day) = fieldValue else { return nil }
        self = day
    }
    public static func accepts(_ kind: QuestionField.Kind) -> Bool { kind == .day }
    public var fieldValue: FieldValue? { .day(self) }
}

extension Date: FieldValueConvertible {
    /// A moment.
    public init?(fieldValue: FieldValue) {
        guard case .moment(let moment) = fieldValue else { return nil }
        self = moment
    }
    public static func accepts(_ kind: QuestionField.Kind) -> Bool { kind == .moment }
    public var fieldValue: FieldValue? { .moment(self) }
}

extension Int: FieldValueConvertible {
    /// A whole number.
    public init?(fieldValue: FieldValue) {
        guard case .count(let number) = fieldValue else { return nil }
        self = number
    }
    public static func accepts(_ kind: QuestionField.Kind) -> Bool {
        if case .count = kind { return true }
        return false
    }
    public var fieldValue: FieldValue? { .count(self) }
}

extension Bool: FieldValueConvertible {
    /// A flag.
    public init?(fieldValue: FieldValue) {
        guard case .flag(let value) = fieldValue else { return nil }
        self = value
    }
    public static func accepts(_ kind: QuestionField.Kind) -> Bool { kind == .flag }
    public var fieldValue: FieldValue? { .flag(self) }
}

/// A choice among words, as a `String` enum (``RateFallback``, a series' period): a field of
/// kind `.choice` whose words are its raw values.
public protocol FieldChoice: FieldValueConvertible, RawRepresentable, CaseIterable where RawValue == String {}

extension FieldChoice {
    public init?(fieldValue: FieldValue) {
        guard case .choice(let word) = fieldValue else { return nil }
        self.init(rawValue: word)
    }
    public static func accepts(_ kind: QuestionField.Kind) -> Bool {
        kind == .choice(allCases.map(\.rawValue))
    }
    public var fieldValue: FieldValue? { .choice(rawValue) }
}

/// An amount as given: its value and its text (trailing zeros kept, for the answer).
public struct GivenAmount: FieldValueConvertible, Equatable {
    /// The value.
    public var value: Decimal
    /// The text as given.
    public var text: String

    /// `value`, written as `text`.
    public init(value: Decimal, text: String) {
        self.value = value
        self.text = text
    }

    public init?(fieldValue: FieldValue) {
        guard case .amount(let value, let text) = fieldValue else { return nil }
        self.init(value: value, text: text)
    }
    public static func accepts(_ kind: QuestionField.Kind) -> Bool { kind == .amount }
    public var fieldValue: FieldValue? { .amount(value, text: text) }
}
