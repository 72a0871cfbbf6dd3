/// What a rate query does on a day without a rate for the currency (a weekend, a holiday).
public enum RateFallback: String, Sendable, CaseIterable, FieldChoice {
    /// No rate is an error.
    case none
    /// The latest earlier day with a rate, within 14 days (the default).
    case previous
    /// The earliest later day with a rate, within 14 days.
    case next
    /// The nearer of the two (the earlier on a tie).
    case nearest
    /// Linear interpolation between the two, by days.
    case interpolate

    /// How far a fallback looks, in days.
    public static let window = 14
}
