import EurofxrefFeed
import Foundation
import TestSupport
import Testing

/// The reader's side of the import policy: it hands on exactly the whole days that end before
/// an error (never the day holding it, wherever in the day the error sits), refuses what it
/// does not understand inside the rates, keeps every digit or refuses the rate, and refuses
/// bytes in an encoding other than the one declared.
@Suite struct ReaderPolicyTests {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
        <Cube>

        """
    static let footer = "\n</Cube>\n</gesmes:Envelope>\n"

    /// The 90-day file's day lines (one day per line, newest first).
    static let dayLines: [String] = {
        let text = (try? String(contentsOf: FixturePaths.ninetyDays, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("<Cube time=") }
    }()

    /// Reads `text`, returning the days handed on (in order) and the error.
    func read(_ text: String, chunkDays: Int) -> (days: [String], rates: Int, error: FeedError?) {
        var days: [String] = []
        var rates = 0
        do {
            _ = try EurofxrefReader(source: "t.xml", chunkDays: chunkDays).read(Data(text.utf8)) { chunk in
                days += chunk.days.map(\.description)
                rates += chunk.records.count
            }
            return (days, rates, nil)
        } catch let error as FeedError {
            return (days, rates, error)
        } catch {
            Issue.record("unexpected \(error)")
            return (days, rates, nil)
        }
    }

    /// Every rate position of seeded days, every chunk size: a bad rate anywhere in a day (the
    /// first, a middle, the last) hands on exactly the days before it, whole, and not that day.
    @Test(arguments: [1, 2, 5, 100])
    func aBadRateAnywhereInADayHandsOnExactlyTheWholeDaysBeforeIt(chunkDays: Int) throws {
        var generator = SeededGenerator(seed: UInt64(chunkDays))
        let lines = Self.dayLines
        for _ in 0..<6 {
            let dayIndex = Int.random(in: 0..<lines.count, using: &generator)
            let rateCount = lines[dayIndex].components(separatedBy: "rate=\"").count - 1
            for position in 0..<rateCount {
                var parts = lines[dayIndex].components(separatedBy: "rate=\"")
                parts[position + 1] = "1.2.3" + parts[position + 1].drop { $0 != "\"" }
                var broken = lines
                broken[dayIndex] = parts.joined(separator: "rate=\"")
                let (days, rates, error) = read(
                    Self.header + broken.joined(separator: "\n") + Self.footer, chunkDays: chunkDays)
                let expected = lines[..<dayIndex].map { String($0.dropFirst(12).prefix(10)) }
                let context = "day \(dayIndex), rate \(position) of \(rateCount), chunkDays \(chunkDays)"
                #expect(days == expected, "\(context)")
                #expect(
                    rates == lines[..<dayIndex].map { $0.components(separatedBy: "rate=\"").count - 1 }.reduce(0, +),
                    "\(context)")
                #expect(
                    error?.line == dayIndex + 4 && error?.message.hasPrefix("rate \"1.2.3\" for ") == true,
                    "\(context): \(String(describing: error))")
            }
        }
    }

    @Test(arguments: [
        (
            #"<Cub currency="CHF" rate="0.9194"/>"#,
            #"t.xml:4:25: unexpected <Cub> in the day Cube of 2026-09-30; expected a rate <Cube currency="XXX" rate="…"/>"#
        ),
        (
            #"<Note/>"#,
            #"t.xml:4:25: unexpected <Note> in the day Cube of 2026-09-30; expected a rate <Cube currency="XXX" rate="…"/>"#
        ),
        (
            #"<Cube currency="CHF" rate="0.9194" note="est"/>"#,
            #"t.xml:4:60: unexpected attribute note="est" on the CHF Cube of 2026-09-30; expected only currency and rate"#
        ),
        (
            #"<Cube currency="CHF" rate="0.9194">0.95</Cube>"#,
            #"t.xml:4:60: unexpected text "0.95" inside the CHF Cube of 2026-09-30; a rate Cube is empty"#
        ),
        (#"0.9194"#, #"t.xml:4:25: unexpected text "0.9194" in the day Cube of 2026-09-30; expected only rate Cubes"#),
        (
            #"<x:Cube xmlns:x="urn:other" currency="CHF" rate="0.9194"/>"#,
            #"t.xml:4:25: unexpected <Cube> (of namespace urn:other) in the day Cube of 2026-09-30; expected a rate <Cube currency="XXX" rate="…"/>"#
        ),
    ])
    func whatTheReaderDoesNotUnderstandInsideADayIsAnError(inserted: String, message: String) throws {
        let day = #"<Cube time="2026-09-30">"# + inserted + #"<Cube currency="USD" rate="1.1355"/></Cube>"#
        let (days, _, error) = read(Self.header + day + "\n" + Self.dayLines[1] + Self.footer, chunkDays: 1)
        #expect(days.isEmpty)
        #expect(error?.description == message)
    }

    /// The issue's case: a flipped bit turns the `<` of a day's first rate into `4`, on a long
    /// line. libxml2 passes such text in place with its line and column already at the text's
    /// end; the error must still name the `4` (line 5, column 25), not the end of line 4.
    @Test func textRightAfterADaysStartIsPlacedAtItsFirstByte() throws {
        let rates = (0..<40).map {
            #"<Cube currency="C\#(String(UnicodeScalar(65 + $0 % 26)!))\#(String(UnicodeScalar(65 + $0 / 26)!))" rate="1.5"/>"#
        }
        .joined()
        let previous = #"<Cube time="2026-09-29">"# + rates + "</Cube>"
        let broken = #"<Cube time="2026-09-30">4Cube currency="USD" rate="1.1355"/></Cube>"#
        let (days, _, error) = read(Self.header + previous + "\n" + broken + Self.footer, chunkDays: 1)
        #expect(days == ["2026-09-29"])
        #expect(
            error?.description
                == #"t.xml:5:25: unexpected text "4Cube currency=\"USD\" rate=\"1.1355\"/>" in the day Cube of 2026-09-30; expected only rate Cubes"#
        )
    }

    /// Stray text that begins with what libxml2 hands on apart (a reference's replacement, text
    /// after a comment, a CDATA section, text that is not ASCII) is placed at its first byte as
    /// written, and quoted as written (found by a review; the fuzz now makes such text too).
    @Test(arguments: [
        (#"&amp;x"#, 25, #""&amp;x""#), (#"<!-- c -->&gt;"#, 35, #""&gt;""#), (#"<![CDATA[  z]]>"#, 36, #""z]]>""#),
        ("Zürich", 25, #""Zürich""#), ("ab&amp;cd", 25, #""ab&amp;cd""#),
    ])
    func strayTextIsPlacedAndQuotedAsWritten(inserted: String, column: Int, quoted: String) throws {
        let day = #"<Cube time="2026-09-30">"# + inserted + #"<Cube currency="USD" rate="1.1355"/></Cube>"#
        let (_, _, error) = read(Self.header + day + Self.footer, chunkDays: 1)
        #expect(
            error?.description
                == "t.xml:4:\(column): unexpected text \(quoted) in the day Cube of 2026-09-30; expected only rate Cubes"
        )
    }

    @Test func anAttributeOnTheDayOrTheWrapperIsAnError() throws {
        let (_, _, onDay) = read(
            Self.header + #"<Cube time="2026-09-30" kind="final"><Cube currency="USD" rate="1.1355"/></Cube>"#
                + Self.footer, chunkDays: 1)
        #expect(
            onDay?.description
                == #"t.xml:4:25: unexpected attribute kind="final" on a day Cube; expected only time="YYYY-MM-DD""#)
        let wrapped = Self.header.replacingOccurrences(of: "<Cube>\n", with: "<Cube kind=\"x\">\n")
        let (_, _, onWrapper) = read(wrapped + Self.dayLines[0] + Self.footer, chunkDays: 1)
        #expect(
            onWrapper?.description
                == #"t.xml:3:7: unexpected attribute kind="x" on the <Cube> that holds the days; expected none"#)
    }

    @Test func aRateOfThirtyEightDigitsIsKeptExactlyAndOneOfMoreIsRefused() throws {
        let exact = "12345678901234567890.123456789012345678"  // 38 digits
        var records: [RateRecord] = []
        _ = try EurofxrefReader(source: "t.xml").read(
            Data(
                (Self.header
                    + #"<Cube time="2026-09-30"><Cube currency="USD" rate="\#(exact)"/><Cube currency="JPY" rate="0.00000000000000000000000000000000000001"/><Cube currency="GBP" rate="1.50000000000000000000000000000000000000000000"/></Cube>"#
                    + Self.footer).utf8)
        ) {
            records += $0.records
        }
        #expect(records.map { "\($0.rate)" } == [exact, "0.00000000000000000000000000000000000001", "1.5"])

        let long = "1234567890123456789012345678901234567.89"  // 39 digits
        let (_, _, error) = read(
            Self.header + #"<Cube time="2026-09-30"><Cube currency="USD" rate="\#(long)"/></Cube>"# + Self.footer,
            chunkDays: 1)
        #expect(
            error?.description
                == #"t.xml:4:52: rate "1234567890123456789012345678901234567.89" for USD on 2026-09-30 has 39 digits; at most 38 are kept exactly, and a rate is never rounded"#
        )
        let tiny = "0.000000000000000000000000000000000000001"  // 39 digits after the point
        let (_, _, tinyError) = read(
            Self.header + #"<Cube time="2026-09-30"><Cube currency="USD" rate="\#(tiny)"/></Cube>"# + Self.footer,
            chunkDays: 1)
        #expect(
            tinyError?.message.hasSuffix("has 39 digits; at most 38 are kept exactly, and a rate is never rounded")
                == true)
    }

    @Test func bytesInAnotherEncodingThanTheDeclaredOneAreRefused() throws {
        let text = Self.header + Self.dayLines[0] + Self.footer
        func error(_ data: Data) -> String? {
            do {
                _ = try EurofxrefReader(source: "t.xml").validate(InputStream(data: data))
                return nil
            } catch {
                return "\(error)"
            }
        }
        var utf16LE = Data([0xFF, 0xFE])
        utf16LE.append(text.data(using: .utf16LittleEndian)!)
        #expect(
            error(utf16LE)
                == #"t.xml:1:31: the file's bytes are UTF-16 (little-endian) but it declares encoding="UTF-8"; ecbrates reads the UTF-8 the ECB publishes"#
        )
        #expect(
            error(text.data(using: .utf16BigEndian)!)
                == #"t.xml:1:31: the file's bytes are UTF-16 (big-endian) but it declares encoding="UTF-8"; ecbrates reads the UTF-8 the ECB publishes"#
        )
        let latin = text.replacingOccurrences(of: "UTF-8", with: "ISO-8859-1")
        #expect(
            error(Data(latin.utf8))
                == #"t.xml:1:31: the file declares encoding="ISO-8859-1"; ecbrates reads the UTF-8 the ECB publishes, and reading it as another would misread it"#
        )
        #expect(error(Data(text.utf8)) == nil)
        #expect(error(Data(text.replacingOccurrences(of: "UTF-8", with: "utf-8").utf8)) == nil)
    }
}
