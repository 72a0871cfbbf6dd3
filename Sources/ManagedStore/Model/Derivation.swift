import Foundation

/// How a derived attribute's value is computed: Core Data's `NSDerivedAttributeDescription`
/// `derivationExpression`, written as Core Data writes it, and computed by the store in the
/// save's SQL transaction.
///
/// | expression | value | type |
/// |---|---|---|
/// | `name` | a copy of another attribute of the object | the attribute's |
/// | `author.name` | an attribute of the object's to-one destination (nil without one) | the attribute's |
/// | `books.@count` | the number of members of a to-many (or many-to-many) relationship | an integer type |
/// | `volumes.@sum.pages` | the sum of an attribute over the members of a to-many (0 with none) | the attribute's (integer or double) |
/// | `volumes.@min.pages`, `volumes.@max.pages` | the least or greatest value (nil with none) | the attribute's |
/// | `volumes.@avg.pages` | the mean (nil with none) | `.double` |
/// | `now()` | the time the object was last saved | `.date` |
/// | `lowercase:(name)`, `uppercase:(name)` | a string attribute in lower or upper case (Unicode) | `.string` |
/// | `canonical:(name)` | a string attribute without case and diacritics (`Straße` → `strasse`) | `.string` |
public enum Derivation: Sendable, Hashable, CustomStringConvertible {
    case attribute(String)
    case destinationAttribute(relationship: String, attribute: String)
    case count(relationship: String)
    /// A function of an attribute over a to-many's members (`volumes.@sum.pages`).
    case aggregate(DerivationFunction, relationship: String, attribute: String)
    case now
    case lowercase(String)
    case uppercase(String)
    case canonical(String)

    /// The derivation Core Data's expression text describes; nil for one this store does not
    /// compute.
    public init?(expression text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        func argument(of function: String) -> String? {
            guard text.hasPrefix(function + ":("), text.hasSuffix(")") else { return nil }
            let inner = text.dropFirst(function.count + 2).dropLast()
            return Self.isName(inner) ? String(inner) : nil
        }
        if text == "now()" {
            self = .now
        } else if let name = argument(of: "lowercase") {
            self = .lowercase(name)
        } else if let name = argument(of: "uppercase") {
            self = .uppercase(name)
        } else if let name = argument(of: "canonical") {
            self = .canonical(name)
        } else {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            switch parts.count {
            case 1 where Self.isName(parts[0]):
                self = .attribute(String(parts[0]))
            case 2 where Self.isName(parts[0]) && parts[1] == "@count":
                self = .count(relationship: String(parts[0]))
            case 3 where Self.isName(parts[0]) && parts[1].hasPrefix("@") && Self.isName(parts[2]):
                guard let function = DerivationFunction(rawValue: String(parts[1].dropFirst())) else { return nil }
                self = .aggregate(function, relationship: String(parts[0]), attribute: String(parts[2]))
            case 2 where Self.isName(parts[0]) && Self.isName(parts[1]):
                self = .destinationAttribute(relationship: String(parts[0]), attribute: String(parts[1]))
            default:
                return nil
            }
        }
    }

    /// The expression, as Core Data writes it.
    public var description: String {
        switch self {
        case .attribute(let name): return name
        case .destinationAttribute(let relationship, let attribute): return "\(relationship).\(attribute)"
        case .count(let relationship): return "\(relationship).@count"
        case .aggregate(let function, let relationship, let attribute):
            return "\(relationship).@\(function.rawValue).\(attribute)"
        case .now: return "now()"
        case .lowercase(let name): return "lowercase:(\(name))"
        case .uppercase(let name): return "uppercase:(\(name))"
        case .canonical(let name): return "canonical:(\(name))"
        }
    }

    private static func isName(_ text: Substring) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}
