import Foundation
import TestSupport
import Testing

/// `ecbrates watch` and the query front-end across processes: what another process's import
/// commits reaches a running watch through the store's history, and a long export reads one
/// state of the store however imports commit beside it.
@Suite(.serialized) struct WatchTests {
    /// The 90-day fixture with USD on 2026-08-28 changed from 1.1643 to 1.1650 (a correction).
    static func correctedNinetyDays(in dir: TemporaryDirectory) throws -> URL {
        try edited(FixturePaths.ninetyDays, replacing: #"<Cube time="2026-08-28"><Cube currency="USD" rate="1.1643"/>"#,
                   with: #"<Cube time="2026-08-28"><Cube currency="USD" rate="1.1650"/>"#, in: dir, name: "90d.xml")
    }

    static func importing(_ file: URL, store: URL, _ extra: [String] = []) throws {
        let run = try CommandRun.process(["import", file.path, "--store", store.path, "--quiet"] + extra)
        #expect(run.status == 0, "\(run.err)")
    }

    /// The events of ndjson lines: `rates DAY CUR=RATE …` or `correction DAY CUR OLD NEW`, with
    /// the token after each (rates as the file spells them, parsed here without ecbrates).
    static func event(_ line: String) -> (text: String, token: Int)? {
        if let match = line.wholeMatch(of: /\{"event":"rates","date":"([0-9-]+)","rates":\{(.*)\},"token":"(\d+)"\}/) {
            let rates = match.2.split(separator: ",").map { $0.replacingOccurrences(of: "\"", with: "").replacingOccurrences(of: ":", with: "=") }
            return ("rates \(match.1) " + rates.joined(separator: " "), Int(match.3)!)
        }
        if let match = line.wholeMatch(of: /\{"event":"correction","date":"([0-9-]+)","currency":"([A-Z]{3})","old":([0-9.]+),"new":([0-9.]+),"source":"[^"]*","token":"(\d+)"\}/) {
            return ("correction \(match.1) \(match.2) \(match.3) \(match.4)", Int(match.5)!)
        }
        return nil
    }

    /// What watch must print for `days` of `file`, for USD and GBP, computed from the file.
    static func expectedRates(_ file: URL, after day: String) throws -> [String] {
        var byDay: [String: [String]] = [:]
        for line in try fileRates(file) {
            let parts = line.split(separator: " ").map(String.init)
            guard parts[0] > day, parts[1] == "USD" || parts[1] == "GBP" else { continue }
            byDay[parts[0], default: []].append("\(parts[1])=\(parts[2])")
        }
        return byDay.keys.sorted().map { "rates \($0) " + byDay[$0]!.sorted().joined(separator: " ") }
    }

    /// Issue 15: watch shows the newest day, then the days and corrections another process's
    /// import brings, within a second of that import's end; SIGINT ends it cleanly with the token
    /// to resume from, and `--since TOKEN` or `--since DAY` replays exactly what came after.
    @Test(.timeLimit(.minutes(3)))
    func anotherProcesssImportReachesARunningWatchWithinASecond() throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        try Self.importing(FixturePaths.history, store: store, ["--to", "2026-08-31"])
        let watch = try InteractiveProcess(CommandRun.executable, arguments: ["watch", "usd,GBP", "--format", "ndjson", "--store", store.path],
                                           directory: dir.url)
        let first = try #require(watch.readLine(timeout: 30).flatMap(Self.event))
        #expect(first.text == "rates 2026-08-31 GBP=0.85648 USD=1.1596")

        let file = try Self.correctedNinetyDays(in: dir)
        try Self.importing(file, store: store)
        let ended = Date()
        var events: [(text: String, token: Int)] = []
        let expected = try Self.expectedRates(file, after: "2026-08-31") + ["correction 2026-08-28 USD 1.1643 1.165"]
        while events.count < expected.count, let line = watch.readLine(timeout: 5) {
            if events.isEmpty { #expect(Date().timeIntervalSince(ended) < 1, "the first new day came \(Date().timeIntervalSince(ended)) s after the import") }
            events.append(try #require(Self.event(line), "not an event: \(line)"))
        }
        #expect(events.map(\.text) == expected)
        #expect(Set(events.map(\.token)).count == 1 && events[0].token > first.token, "one import, one transaction: \(events.map(\.token))")

        watch.interrupt()
        let (status, errors) = watch.finish()
        #expect(status == 0)
        #expect(errors.hasSuffix("stopped; resume with --since \(events[0].token)\n"), "\(errors)")

        for since in ["\(first.token)", "2026-08-31"] {
            let replay = try InteractiveProcess(CommandRun.executable, arguments: ["watch", "USD,GBP", "--format", "ndjson", "--since", since,
                                                                                  "--store", store.path], directory: dir.url)
            var replayed: [String] = []
            while replayed.count < expected.count, let line = replay.readLine(timeout: 10) { replayed.append(Self.event(line)?.text ?? line) }
            #expect(replayed == expected, "--since \(since)")
            replay.interrupt()
            #expect(replay.finish().status == 0)
        }
    }

    @Test func watchSaysWhatIsWrongWithItsArguments() throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let missing = try CommandRun.process(["watch", "--store", store.path])
        #expect(missing.status == 66 || missing.status == 65 || missing.status != 0)
        #expect(missing.err == "Error: no store at \(store.path); run 'ecbrates import' first\n")
        try Self.importing(FixturePaths.daily, store: store)
        let badSince = try CommandRun.process(["watch", "--since", "yesterday", "--store", store.path])
        #expect(badSince.status == 64)
        #expect(badSince.err.hasPrefix("Error: The value 'yesterday' is invalid for '--since <token|day>': expected a history token (a number ecbrates watch printed) or a day as YYYY-MM-DD\n"), "\(badSince.err)")
        let unknown = try CommandRun.process(["watch", "XXX", "--store", store.path])
        #expect(unknown.status == 65 || unknown.status == 64)
        #expect(unknown.err.contains("XXX"), "\(unknown.err)")
    }

    /// Issue 15: an export pinned to one query generation equals the store before or after an
    /// import that commits while it runs, never a mix. The export reads a year at a time; each
    /// import flips the USD rate of a day in 2000 and of one in 2026, in one transaction, so
    /// an export that read the two years from two states would hold one flipped and one not.
    @Test(.timeLimit(.minutes(5)))
    func anExportWhileImportsCommitReadsOneStateOfTheStore() throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        try Self.importing(FixturePaths.history, store: store)
        let lines = try String(contentsOf: FixturePaths.history, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let header = lines.prefix { !$0.hasPrefix("<Cube time=") }
        let days = lines.filter { $0.hasPrefix(#"<Cube time="2026-09-30">"#) || $0.hasPrefix(#"<Cube time="2000-06-01">"#) }
        #expect(days.count == 2)
        let original = (header + days + ["\t</Cube>", "</gesmes:Envelope>", ""]).joined(separator: "\n")
        let a = dir.file("a.xml"), b = dir.file("b.xml")
        try original.write(to: a, atomically: true, encoding: .utf8)
        try original.replacing(/currency="USD" rate="([0-9.]+)"/) { "currency=\"USD\" rate=\"\($0.1)7\"" }.write(to: b, atomically: true, encoding: .utf8)
        func export() throws -> String {
            let run = try CommandRun.process(["export", "--layout", "long", "--store", store.path])
            #expect(run.status == 0, "\(run.err)")
            return run.out
        }
        let stateA = try export()
        try Self.importing(b, store: store)
        let stateB = try export()
        #expect(stateA != stateB)

        let stop = StopFlag(false)
        let importer = Thread {
            var flip = false
            while !stop.load() {
                _ = try? CommandRun.process(["import", (flip ? b : a).path, "--store", store.path, "--quiet"])
                flip.toggle()
            }
        }
        importer.start()
        defer { stop.store(true) }
        for round in 0..<6 {
            let text = try export()
            #expect(text == stateA || text == stateB, "round \(round): the export mixed two states of the store")
        }
    }
}

/// A flag shared with a thread.
final class StopFlag: @unchecked Sendable {   // guarded by `lock`
    private let lock = NSLock()
    private var value: Bool
    init(_ value: Bool) { self.value = value }
    func load() -> Bool { lock.withLock { value } }
    func store(_ newValue: Bool) { lock.withLock { value = newValue } }
}
