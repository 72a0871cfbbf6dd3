import Foundation

/// A rule an attribute's value must keep for its object to be saved: what Core Data's model
/// editor calls minimum and maximum value, minimum and maximum length, a regular expression, and
/// what its `setValidationPredicates(_:withValidationWarnings:)` takes.
///
/// ```swift
/// AttributeDescription(name: "title", type: .string, validationRules: [
///     .minimumLength(1), .maximumLength(200), .regularExpression("[^\\n]*"),
/// ])
/// AttributeDescription(name: "pages", type: .integer32, validationRules: [
///     .minimumValue(.integer(1)), .maximumValue(.integer(10_000)),
///     .predicate(#Predicate<Int32> { $0 % 2 == 0 }, warning: "a sheet has two pages"),
/// ])
/// ```
///
/// As in Core Data, a rule is checked on a value that is not nil (nil is the attribute's
/// optionality's concern), when an object is saved (``ManagedObject/validateForInsert()``,
/// ``ManagedObject/validateForUpdate()``) or asked (``ManagedObject/validateValue(_:forKey:)``),
/// never when it is set. A broken rule fails with Core Data's code for it
/// (``ValidationErrorCode``). A rule that cannot apply to its attribute (a length of a number, a
/// bound of another type, a pattern ICU does not read) is an error of the model
/// (``ManagedObjectModel/validate()``).
public enum ValidationRule: Sendable, Hashable, CustomStringConvertible {
    /// The least value: a number for a numeric attribute (``ValidationErrorCode/numberTooSmall``),
    /// a date for a date attribute (``ValidationErrorCode/dateTooSoon``). An `.integer` bound
    /// serves a `.double` or `.decimal` attribute too.
    case minimumValue(AttributeValue)
    /// The greatest value (``ValidationErrorCode/numberTooLarge``, ``ValidationErrorCode/dateTooLate``).
    case maximumValue(AttributeValue)
    /// The least length (``ValidationErrorCode/stringTooShort``): of a string, in UTF-16 code
    /// units as `NSString.length` counts them (so "é" is 1 and "😀" is 2); of binary data, in bytes.
    case minimumLength(Int)
    /// The greatest length (``ValidationErrorCode/stringTooLong``), counted as for ``minimumLength(_:)``.
    case maximumLength(Int)
    /// An ICU regular expression the whole string must match, as Core Data's `MATCHES`
    /// (``ValidationErrorCode/stringPatternMatching``).
    case regularExpression(String)
    /// A predicate on the value, with the warning a failure reports
    /// (``ValidationErrorCode/managedObjectValidation``).
    case predicate(ValidationPredicate)

    /// A predicate on the value with the warning its failure reports (Core Data's validation
    /// predicate and warning).
    public static func predicate<Value: AttributeRepresentable & SendableMetatype>(
        _ predicate: Predicate<Value>, warning: String
    ) -> ValidationRule {
        .predicate(ValidationPredicate(predicate, warning: warning))
    }

    public var description: String {
        switch self {
        case .minimumValue(let value): return "at least \(value)"
        case .maximumValue(let value): return "at most \(value)"
        case .minimumLength(let length): return "at least \(length) long"
        case .maximumLength(let length): return "at most \(length) long"
        case .regularExpression(let pattern): return "matching /\(pattern)/"
        case .predicate(let predicate): return "'\(predicate.warning)'"
        }
    }

    /// The rule made to fit an attribute of `type` (an integer bound of a double or decimal
    /// attribute becomes one of its type), or why it cannot apply to it.
    func fitted(to type: AttributeType) -> Result<ValidationRule, RuleMismatch> {
        switch self {
        case .minimumValue(let bound), .maximumValue(let bound):
            guard [.integer16, .integer32, .integer64, .double, .decimal, .date].contains(type) else {
                return .failure(RuleMismatch("an attribute of type \(type) has no minimum or maximum value"))
            }
            var fitted = bound
            if case .integer(let integer) = bound {
                if type == .double {
                    guard let double = Double(exactly: integer) else {
                        return .failure(RuleMismatch("the bound \(integer) has no exact double"))
                    }
                    fitted = .double(double)
                } else if type == .decimal {
                    fitted = .decimal(Decimal(integer))
                }
            }
            guard !fitted.isNull, fitted.fits(type) else {
                return .failure(RuleMismatch("the bound \(bound) is not a value of an attribute of type \(type)"))
            }
            if case .minimumValue = self { return .success(.minimumValue(fitted)) }
            return .success(.maximumValue(fitted))
        case .minimumLength(let length), .maximumLength(let length):
            guard type == .string || type == .binaryData else {
                return .failure(RuleMismatch("an attribute of type \(type) has no length"))
            }
            guard length >= 0 else { return .failure(RuleMismatch("a length cannot be \(length)")) }
            return .success(self)
        case .regularExpression(let pattern):
            guard type == .string else {
                return .failure(
                    RuleMismatch("a regular expression applies to a string, not to an attribute of type \(type)"))
            }
            guard PatternCache.shared.expression(pattern) != nil else {
                return .failure(RuleMismatch("'\(pattern)' is not a regular expression ICU reads"))
            }
            return .success(self)
        case .predicate(let predicate):
            guard predicate.valueType == type else {
                return .failure(
                    RuleMismatch("the predicate '\(predicate.warning)' takes values of type \(predicate.valueType)"))
            }
            return .success(self)
        }
    }

    /// Whether `value` (not nil, of the attribute's type) keeps the rule; when not, Core
    /// Data's code for it and the reason.
    func check(_ value: AttributeValue) -> (code: ValidationErrorCode, reason: String)? {
        switch self {
        case .minimumValue(let bound):
            guard AttributeValue.ascending(value, bound) else { return nil }
            if case .date = value { return (.dateTooSoon, "is \(value), before the earliest allowed, \(bound)") }
            return (.numberTooSmall, "is \(value), less than the minimum, \(bound)")
        case .maximumValue(let bound):
            guard AttributeValue.ascending(bound, value) else { return nil }
            if case .date = value { return (.dateTooLate, "is \(value), after the latest allowed, \(bound)") }
            return (.numberTooLarge, "is \(value), more than the maximum, \(bound)")
        case .minimumLength(let least):
            let length = Self.length(of: value)
            guard length < least else { return nil }
            return (.stringTooShort, "is \(length) long, shorter than the minimum length, \(least)")
        case .maximumLength(let most):
            let length = Self.length(of: value)
            guard length > most else { return nil }
            return (.stringTooLong, "is \(length) long, longer than the maximum length, \(most)")
        case .regularExpression(let pattern):
            guard case .string(let text) = value, let expression = PatternCache.shared.expression(pattern) else {
                return nil
            }
            let whole = NSRange(location: 0, length: text.utf16.count)
            guard expression.firstMatch(in: text, options: [.anchored], range: whole) == nil else { return nil }
            return (.stringPatternMatching, "is \(value), which does not match /\(pattern)/")
        case .predicate(let predicate):
            guard !predicate.evaluate(value) else { return nil }
            return (.managedObjectValidation, predicate.warning)
        }
    }

    /// A string's length in UTF-16 code units (`NSString.length`), binary data's in bytes.
    static func length(of value: AttributeValue) -> Int {
        switch value {
        case .string(let text): return text.utf16.count
        case .binaryData(let data): return data.count
        default: return 0
        }
    }
}

/// Why a ``ValidationRule`` cannot apply to an attribute.
struct RuleMismatch: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// A validation predicate and its warning: Foundation's `Predicate` on the attribute's Swift
/// type, evaluated on the value (Core Data's `SELF`). Two are equal when their warnings are.
public struct ValidationPredicate: Sendable, Hashable {
    /// The text a failure reports.
    public let warning: String
    /// The type of the attribute whose values it takes.
    let valueType: AttributeType
    private let test: @Sendable (AttributeValue) -> Bool

    /// A predicate on values of `Value`, with its warning.
    public init<Value: AttributeRepresentable & SendableMetatype>(_ predicate: Predicate<Value>, warning: String) {
        self.warning = warning
        self.valueType = Value.attributeType
        self.test = { value in
            // A predicate that cannot evaluate (it throws) is a failure, not a pass.
            guard let typed = Value(attributeValue: value) else { return false }
            return (try? predicate.evaluate(typed)) ?? false
        }
    }

    func evaluate(_ value: AttributeValue) -> Bool { test(value) }

    public static func == (lhs: ValidationPredicate, rhs: ValidationPredicate) -> Bool {
        lhs.warning == rhs.warning && lhs.valueType == rhs.valueType
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(warning) }
}

/// The regular expressions of the model's rules, compiled once per pattern: an
/// `NSRegularExpression` is immutable and safe to use from any thread (Apple's documentation).
final class PatternCache: @unchecked Sendable {
    static let shared = PatternCache()
    /// Guarded by `lock`.
    private var expressions: [String: NSRegularExpression?] = [:]
    private let lock = NSLock()

    /// `pattern` compiled to match a whole string (`\A(?:pattern)\z`, as `MATCHES` does), or nil
    /// when ICU cannot read it.
    func expression(_ pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let known = expressions[pattern] { return known }
        // The pattern must read on its own: wrapped, "a)(b" would.
        let compiled =
            (try? NSRegularExpression(pattern: pattern)) == nil
            ? nil : try? NSRegularExpression(pattern: "\\A(?:\(pattern))\\z")
        expressions[pattern] = .some(compiled)
        return compiled
    }
}
