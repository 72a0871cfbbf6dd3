import EurofxrefFeed
import Foundation
import TestSupport
import Testing

/// Reading the real files, their layouts, chunking and checking.
@Suite struct ReaderTests {
    /// Reads a whole source, collecting its chunks.
    func readAll(_ data: Data, source: String = "test.xml", chunkDays: Int = 100) throws -> (FeedSummary, [RateChunk]) {
        var chunks: [RateChunk] = []
        let summary = try EurofxrefReader(source: source, chunkDays: chunkDays).read(data) { chunks.append($0) }
        return (summary, chunks)
    }

    @Test func theFullHistoryReadsCompletely() throws {
        let data = try Data(contentsOf: FixturePaths.history)
        let (summary, chunks) = try readAll(data, source: "eurofxref-hist.xml")
        // Counted here from the text, independently of the reader.
        let text = String(decoding: data, as: UTF8.self)
        let dayCount = text.components(separatedBy: "<Cube time=").count - 1
        let rateCount = text.components(separatedBy: "currency=\"").count - 1
        let currencies = Set(text.matches(of: /currency="([A-Z]{3})"/).map { String($0.1) })
        #expect(summary.days == dayCount && dayCount == 7104)
        #expect(summary.rates == rateCount && rateCount == 221_064)
        #expect(summary.currencies == currencies.sorted())
        #expect(summary.firstDay == CalendarDay("1999-01-04"))
        #expect(summary.lastDay == CalendarDay("2026-09-30"))
        #expect(chunks.reduce(0) { $0 + $1.records.count } == 221_064)
        #expect(summary.description == "7104 days 1999-01-04..2026-09-30, 221064 rates, \(currencies.count) currencies")
    }

    /// Values the design notes name, read by hand from the file.
    @Test func publishedValuesComeThroughExactly() throws {
        let (_, chunks) = try readAll(try Data(contentsOf: FixturePaths.history))
        let records = chunks.flatMap(\.records)
        func rate(_ day: String, _ currency: String) -> Decimal? {
            records.first { $0.day == CalendarDay(day) && $0.currency == currency }?.rate
        }
        #expect(rate("2026-09-30", "USD") == Decimal(string: "1.1355"))
        #expect(rate("2026-09-30", "JPY") == Decimal(string: "178.27"))
        #expect(records.filter { $0.currency == "TRL" }.map(\.rate).max() == Decimal(1_912_400))
        #expect(records.filter { $0.currency == "MTL" }.map(\.rate).min() == Decimal(string: "0.3883"))
        #expect(records.contains { $0.currency == "LVL" && $0.rate == Decimal(string: "0.702804") })
        #expect(records.filter { $0.currency == "RUB" }.map(\.day).max() == CalendarDay("2022-03-01"))
        #expect(records.filter { $0.currency == "BGN" }.map(\.day).max() == CalendarDay("2025-12-31"))
        #expect(
            records.filter {
                $0.currency == "ISK" && $0.day > CalendarDay("2008-12-10")! && $0.day < CalendarDay("2018-01-31")!
            }.isEmpty)
        #expect(records.filter { $0.currency == "CNY" }.map(\.day).min() == CalendarDay("2005-04-01"))
    }

    @Test(arguments: [1, 2, 7, 63, 64, 1_000])
    func chunksHoldExactlyTheChunkSizeInWholeDays(chunkDays: Int) throws {
        let (summary, chunks) = try readAll(try Data(contentsOf: FixturePaths.ninetyDays), chunkDays: chunkDays)
        var seenDays = Set<CalendarDay>()
        for (index, chunk) in chunks.enumerated() {
            #expect(Set(chunk.records.map(\.day)) == Set(chunk.days), "a chunk's days are the days of its records")
            for day in chunk.days {
                #expect(seenDays.insert(day).inserted, "\(day) is in one chunk only")
            }
            // Every chunk but the last holds exactly chunkDays days; the last, what is left.
            let isLast = index == chunks.count - 1
            if isLast {
                #expect(chunk.days.count == summary.days - chunkDays * index)
            } else {
                #expect(chunk.days.count == chunkDays)
            }
        }
        #expect(seenDays.count == summary.days)
    }

    @Test func theThreeFilesReadTheSameRatesForTheSameDay() throws {
        let (daily, dailyChunks) = try readAll(try Data(contentsOf: FixturePaths.daily))
        let (ninety, ninetyChunks) = try readAll(try Data(contentsOf: FixturePaths.ninetyDays))
        #expect(daily.days == 1 && daily.lastDay == CalendarDay("2026-09-30"))
        #expect(
            ninety.days == 64 && ninety.firstDay == CalendarDay("2026-07-03")
                && ninety.lastDay == CalendarDay("2026-09-30"))
        let newest = ninetyChunks.flatMap(\.records).filter { $0.day == CalendarDay("2026-09-30") }
        // 24.440 in the daily file, 24.44 in the 90-day file: one value.
        #expect(Set(dailyChunks.flatMap(\.records)) == Set(newest))
    }

    /// Every layout and variant the ECB's files come in reads to the same records.
    @Test(arguments: LayoutVariant.allCases)
    func everyLayoutReadsTheSame(variant: LayoutVariant) throws {
        let sample = LayoutVariant.sample
        let (_, expected) = try readAll(Data(sample.utf8))
        let (summary, chunks) = try readAll(variant.apply(to: sample))
        #expect(Set(chunks.flatMap(\.records)) == Set(expected.flatMap(\.records)))
        #expect(summary.days == 3 && summary.rates == 7)
    }

    @Test func anErrorFromTheHandlerEndsTheReadAndComesBack() throws {
        struct Stop: Error {}
        var calls = 0
        #expect(throws: Stop.self) {
            _ = try EurofxrefReader(source: "hist", chunkDays: 1).read(try Data(contentsOf: FixturePaths.ninetyDays)) {
                _ in
                calls += 1
                if calls == 2 { throw Stop() }
            }
        }
        #expect(calls == 2)
    }

    @Test func chunksHandedOnBeforeABadDayHoldCompleteCheckedDays() throws {
        // Three good days, then a bad rate on the fourth.
        var text = LayoutVariant.sample
        text = text.replacingOccurrences(
            of: "</Cube>\n\t</Cube>",
            with: "</Cube>\n<Cube time=\"2019-02-27\"><Cube currency=\"USD\" rate=\"x\"/></Cube>\n\t</Cube>")
        var received: [RateRecord] = []
        #expect(throws: FeedError.self) {
            _ = try EurofxrefReader(source: "s", chunkDays: 1).read(Data(text.utf8)) { received += $0.records }
        }
        #expect(received.count == 7)
        #expect(Set(received.map(\.day)).count == 3)
    }
}

/// The layouts of the ECB's three files and the variants seen in the wild, applied to a sample.
enum LayoutVariant: String, CaseIterable, CustomTestStringConvertible {
    case singleQuotes, elementPerLineWithTabs, noIndentation, crlf, byteOrderMark, comments, daysInAnyOrder,
        whitespaceInTags

    var testDescription: String { rawValue }

    /// Three days in the history's layout (double quotes, one day per line).
    static let sample = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
        \t<gesmes:subject>Reference rates</gesmes:subject>
        \t<gesmes:Sender>
        \t\t<gesmes:name>European Central Bank</gesmes:name>
        \t</gesmes:Sender>
        \t<Cube>
        <Cube time="2019-03-04"><Cube currency="USD" rate="1.1342"/><Cube currency="JPY" rate="126.82"/><Cube currency="ISK" rate="136.1"/></Cube>
        <Cube time="2019-03-01"><Cube currency="USD" rate="1.1383"/><Cube currency="JPY" rate="127.11"/></Cube>
        <Cube time="2019-02-28"><Cube currency="USD" rate="1.1416"/><Cube currency="JPY" rate="126.82"/></Cube>
        \t</Cube>
        </gesmes:Envelope>

        """

    func apply(to text: String) -> Data {
        switch self {
        case .singleQuotes:
            return Data(
                text.replacingOccurrences(of: "\"", with: "'").replacingOccurrences(
                    of: "version='1.0' encoding='UTF-8'", with: "version=\"1.0\" encoding=\"UTF-8\""
                ).utf8)
        case .elementPerLineWithTabs:
            return Data(
                text.replacingOccurrences(of: "><Cube currency", with: ">\n\t\t\t<Cube currency")
                    .replacingOccurrences(of: "/></Cube>", with: "/>\n\t\t</Cube>")
                    .replacingOccurrences(of: "\n<Cube time", with: "\n\t\t<Cube time").utf8)
        case .noIndentation:
            return Data(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined().utf8)
        case .crlf:
            return Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        case .byteOrderMark:
            return Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)
        case .comments:
            return Data(
                text.replacingOccurrences(
                    of: "\t<Cube>\n", with: "\t<!-- published 16:00 CET -->\n\t<Cube>\n<!-- newest first -->\n"
                ).utf8)
        case .daysInAnyOrder:
            var lines = text.components(separatedBy: "\n")
            lines.swapAt(7, 9)
            return Data(lines.joined(separator: "\n").utf8)
        case .whitespaceInTags:
            return Data(
                text.replacingOccurrences(
                    of: "<Cube currency=\"USD\" rate=", with: "<Cube  currency = \"USD\"\n rate ="
                ).utf8)
        }
    }
}
