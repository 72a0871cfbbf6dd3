/// What `watch` reports: an event of the store's history, with the token to resume after it.
public struct WatchEvent: Sendable, Equatable {
    /// New rates of a day, or a correction.
    public let event: RateWatcher.Event
    /// The history token after it (`watch --since TOKEN` resumes there).
    public let token: String

    /// `event`, at `token`.
    public init(_ event: RateWatcher.Event, token: String) {
        self.event = event
        self.token = token
    }
}
