import Synchronization

/// What completes a value in a shell.
enum ValueCompletion: Sendable, Equatable {
    /// Nothing in particular.
    case none
    /// Currency codes held by the store.
    case currencies
    /// A file name.
    case file
    /// A directory's name.
    case directory
    /// One of these words (a shell's name, a command's).
    case words([String])
}
