import Foundation

/// One day's rates, found by a linear scan of packed codes: a day has at most a few dozen, and
/// comparing 4-byte integers beats hashing strings. A class, so that handing a day around costs
/// one reference count, not three.
final class DayRates {
    private var packed: [UInt32] = []
    private var names: [String] = []
    private var values: [Decimal] = []

    /// Whether the day holds no rate (nothing published, or not stored).
    var isEmpty: Bool { packed.isEmpty }

    /// The codes, in code order.
    var codes: [String] { names.sorted() }

    func add(_ code: String, _ value: Decimal) {
        packed.append(Self.pack(code))
        names.append(code)
        values.append(value)
    }

    /// The rate of `code`, if the day has one.
    subscript(code: String) -> Decimal? { self[packed: Self.pack(code)] }

    /// The rate of the code `key` packs (``pack(_:)``), if the day has one.
    subscript(packed key: UInt32) -> Decimal? {
        let index = packed.withUnsafeBufferPointer { codes in codes.firstIndex(of: key) }
        return index.map { values[$0] }
    }

    /// A code of up to four ASCII bytes as one integer (a longer string never matches a code).
    static func pack(_ code: String) -> UInt32 {
        var code = code
        return code.withUTF8 { bytes in
            guard bytes.count <= 4 else { return .max }
            var result: UInt32 = 0
            for byte in bytes { result = result << 8 | UInt32(byte) }
            return result
        }
    }
}
