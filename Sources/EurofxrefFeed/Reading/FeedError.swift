import Foundation

/// What is wrong with an ECB rates file, and where: the source, the line and column, the
/// offending text and what was expected.
///
/// ```
/// eurofxref-hist.xml:1203:57: rate "1,2345" for USD on 2019-03-04 is not a decimal number
/// ```
public struct FeedError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The kinds of trouble a file can have.
    public enum Kind: String, Sendable, Equatable {
        /// Nothing at all, or only white space.
        case empty
        /// Not an ECB rates document: an HTML page, another XML vocabulary, a DTD.
        case notRatesDocument
        /// Not well-formed XML.
        case malformed
        /// The document stops before its end.
        case truncated
        /// A value that is not what the ECB publishes: a day, a currency code, a rate.
        case invalidValue
        /// A day twice in the file, or a currency twice in a day.
        case duplicate
        /// Elements in the wrong place: a rate outside a day, a day without rates.
        case structure
        /// The source could not be read.
        case unreadable
    }

    /// The source's name, as given to the reader.
    public let source: String
    /// The line (1-based), when the trouble has a place.
    public let line: Int?
    /// The column (1-based), when known.
    public let column: Int?
    /// What kind of trouble.
    public let kind: Kind
    /// What is wrong, in words, without the place.
    public let message: String

    /// An error at a place in `source`.
    public init(source: String, line: Int?, column: Int?, kind: Kind, message: String) {
        self.source = source
        self.line = line
        self.column = column
        self.kind = kind
        self.message = message
    }

    /// `source:line:column: message`.
    public var description: String {
        var place = source
        if let line { place += ":\(line)" }
        if let line = line, line > 0, let column { place += ":\(column)" }
        return "\(place): \(message)"
    }

    public var errorDescription: String? { description }
}
