/// A break of the ECB's rules for a rates file, found by ``EurofxrefRules`` at a byte of the
/// document: thrown inside the rules and turned into a ``FeedError`` (with the byte's line and
/// column) in one place, where the read stops.
///
/// `@unchecked Sendable` (as `Error` requires): it never leaves the parser's thread; it is
/// thrown and caught inside one SAX callback, while `position` still points into the buffer.
struct RuleViolation: Error, @unchecked Sendable {
    /// What kind of error the file has.
    let kind: FeedError.Kind
    /// The offending byte in libxml2's buffer; `nil` for where the parser stands.
    let position: UnsafePointer<UInt8>?
    /// What was found and what was expected.
    let message: String

    init(_ kind: FeedError.Kind, at position: UnsafePointer<UInt8>?, _ message: String) {
        self.kind = kind
        self.position = position
        self.message = message
    }
}
