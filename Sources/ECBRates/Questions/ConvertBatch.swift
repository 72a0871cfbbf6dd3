import Foundation

/// What a conversion of many rows (a CSV, each row converted on its own day) takes beside its
/// rows: the settings of ``ConvertQuestion`` that apply to every row, and how the rows are
/// written. `POST /api/convert` reads them as its query parameters, and the OpenAPI document
/// lists them.
public struct ConvertBatch: FieldSet {
    /// What answers a row's day without a rate.
    @Field(.fallback) public var fallback: RateFallback = .previous
    /// Decimal places of each result (nil: the target currency's minor units).
    @Field(ConvertQuestion.precisionField) public var precision: Int?
    /// What separates the fields (nil: found in the header).
    @Field(
        QuestionField(
            name: "delimiter", kind: .choice(CSVDelimiter.allCases.map(\.rawValue)),
            help: "comma, semicolon or tab between fields (default: found in the header)."))
    public var delimiter: CSVDelimiter?
    /// How the amounts are written (nil: 1234.56).
    @Field(
        QuestionField(
            name: "number_format", kind: .choice(AmountFormat.allCases.map(\.rawValue)),
            help:
                "How amounts are written: 1234.56 (default), 1,234.56, 1'234.56, 1.234,56 (or 1 234,56) or 1234,56."))
    public var numberFormat: AmountFormat?

    public init() {}
}
