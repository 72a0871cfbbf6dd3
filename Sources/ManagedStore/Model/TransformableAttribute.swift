import Foundation

/// A `Codable` value that an ``Attribute`` property can hold whole, as Core Data's transformable
/// attributes do: it is stored as its JSON (keys sorted, so that equal values store equal
/// bytes and an unchanged value is not a change), in an attribute of type `.transformable`.
///
/// ```swift
/// struct Address: Codable, Hashable, TransformableAttribute {
///     var street: String
///     var city: String
/// }
/// final class Customer: ManagedObject {
///     @Attribute var address: Address          // AttributeDescription(name: "address", type: .transformable)
///     @Attribute var previous: Address?        // … isOptional: true
/// }
/// ```
///
/// A predicate can compare an optional one only as a whole (by its JSON, `$0.previous == home`),
/// never look inside it, and cannot use a non-optional one at all (it traps, saying so). A value
/// that does not encode is a programmer error and traps; stored bytes that do not decode as the
/// type read as no value of it (the property traps, naming the attribute).
public protocol TransformableAttribute: Codable, AttributeRepresentable {}

extension TransformableAttribute {
    public static var attributeType: AttributeType { .transformable }

    public init?(attributeValue: AttributeValue) {
        guard case .binaryData(let data) = attributeValue,
            let value = try? JSONDecoder().decode(Self.self, from: data)
        else { return nil }
        self = value
    }

    public var attributeValue: AttributeValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return .binaryData(try encoder.encode(self))
        } catch {
            preconditionFailure(
                "ManagedStore: a \(Self.self) could not be encoded for a transformable attribute: \(error)")
        }
    }
}
