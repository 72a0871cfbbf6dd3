/// A function over a to-many relationship's members that a derived attribute may apply
/// (Apple's `NSDerivedAttributeDescription`: "to-many keypath with a function … Supported
/// functions include @count and @sum"; the others are Key-Value Coding's collection operators).
public enum DerivationFunction: String, Sendable, Hashable, CaseIterable {
    /// `@sum`: the total (0 when there is no member).
    case sum
    /// `@min`: the least value (nil when there is no member).
    case min
    /// `@max`: the greatest value (nil when there is no member).
    case max
    /// `@avg`: the mean, a double (nil when there is no member).
    case avg
}
