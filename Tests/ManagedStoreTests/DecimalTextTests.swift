import Foundation
import Testing

@testable import ManagedStore

/// Decimal attributes are stored as exact text, formatted and parsed without Foundation's slow
/// paths; the results must be Foundation's, value for value.
@Suite struct DecimalTextTests {
    @Test(arguments: [
        "1.1790", "1.179", "144", "20000", "1912400", "0.3883", "0.702804", "0", "-12.5", "100",
        "0.0001", "123456789012345678", "1234567890123456789012", "0.000000000001", "-0.5", "7.000",
    ])
    func formatAndParseMatchFoundation(text: String) throws {
        let decimal = try #require(Decimal(string: text, locale: nil))
        #expect(DecimalText.format(decimal) == decimal.description)
        #expect(DecimalText.parse(text) == decimal)
        #expect(DecimalText.parse(DecimalText.format(decimal)) == decimal)
    }

    @Test func tenThousandSeededValuesRoundTripExactly() throws {
        var generator = SeededGenerator(seed: 20260930)
        for _ in 0..<10_000 {
            let digits = Int.random(in: 1...17, using: &generator)
            var text = String(UInt64.random(in: 1...UInt64(pow(10.0, Double(digits)) - 1), using: &generator))
            let point = Int.random(in: 0...text.count, using: &generator)
            if point < text.count { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            if text.hasPrefix(".") { text = "0" + text }
            if Bool.random(using: &generator) { text = "-" + text }
            let decimal = try #require(Decimal(string: text, locale: nil))
            #expect(DecimalText.format(decimal) == decimal.description, "\(text)")
            #expect(DecimalText.parse(text) == decimal, "\(text)")
        }
    }

    @Test func theLayoutCheckHoldsOnThisToolchain() {
        // If this fails, formatting still works through Foundation's public API, only slower.
        #expect(DecimalText.layoutIsKnown)
    }

    @Test(arguments: ["", "abc", "1,2345", "1.2.3", "--1"])
    func otherTextParsesAsFoundationDoes(text: String) {
        #expect(DecimalText.parse(text) == Decimal(string: text, locale: nil))
    }

    /// Foundation reads these as 0; text without a digit is no number.
    @Test(arguments: ["-", "."])
    func textWithoutADigitIsNoNumber(text: String) {
        #expect(DecimalText.parse(text) == nil)
    }
}

/// A small deterministic generator (SplitMix64), so that seeded tests repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
