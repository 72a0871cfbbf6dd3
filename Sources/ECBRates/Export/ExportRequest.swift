import EurofxrefFeed
import Foundation

/// What an export of the stored rates takes (``RateExporter``, `ecbrates export`), as typed
/// fields: a set of fields, not a ``Question``, because its answer is a file written a year at
/// a time in constant memory, not an answer every door renders whole. Its fields are the
/// questions' own (`from`, `to`, `base`, `partial`, `as_of`), declared once.
public struct ExportRequest: FieldSet {
    /// The first day (nil: the first stored).
    @Field(.from("The first day (default: the first stored day).")) public var from: CalendarDay?
    /// The last day (nil: the newest stored).
    @Field(.to) public var to: CalendarDay?
    /// Only these currencies (nil: all).
    @Field(QuestionField(name: "currencies", kind: .currencies, help: "Only these currencies (USD,JPY,…)."))
    public var currencies: [CurrencyCode]?
    /// The currency quoted against.
    @Field(.base) public var base: CurrencyCode = .euro
    /// The CSV layout (nil: long).
    @Field(
        QuestionField(
            name: "layout", kind: .choice(RateExporter.Layout.allCases.map(\.rawValue)),
            help: "long or wide (default: long).", valueName: "layout"))
    public var layout: RateExporter.Layout?
    /// Whether a range the store lacks days of is written from what it holds.
    @Field(.partial) public var partial = false
    /// The moment the store is read as of (nil: now).
    @Field(.asOf) public var asOf: Date?

    public init() {}

    /// Refuses a range backwards, and the ECB's wide layout against another base than the euro:
    /// a file of cross rates in it would be read back (by ecbrates or any tool that reads the
    /// ECB's CSV) as rates per euro.
    public func check() throws(QuestionRefusal) {
        try Self.checkRange(from: _from, to: _to)
        if layout == .wide && base != "EUR" {
            let (layout, base) = (_layout.field, _base.field)
            throw QuestionRefusal(
                .conflict { door in
                    "'\(door.spell(layout, "wide"))' is the ECB's layout, rates per euro; with \(door.label(base)) use '\(door.spell(layout, "long"))'"
                })
        }
    }
}
