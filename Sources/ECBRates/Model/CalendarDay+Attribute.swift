import EurofxrefFeed
import ManagedStore

/// A calendar day is an attribute type of its own (`.day`): stored as its 00:00 UTC, read back
/// as the day, compared and sorted as days in predicates, with no `Date` on the way.
extension CalendarDay: AttributeRepresentable {
    public static var attributeType: AttributeType { .day }

    public init?(attributeValue: AttributeValue) {
        guard case .day(let days) = attributeValue else { return nil }
        self.init(daysSince1970: days)
    }

    public var attributeValue: AttributeValue { .day(daysSince1970) }
}
