import Foundation
import TestSupport
import Testing

/// Bad input, systematically, through the whole `ecbrates import` path: each broken fixture
/// gives its exact error, exit 65, and leaves the store as it was; and a seeded fuzz test
/// mutates the good fixtures a few hundred times: the program never crashes or hangs, each run
/// imports or fails with an error that names the file, and the store stays sound.
@Suite struct BadInputTests {
    @Test(arguments: FixturePaths.brokenCases)
    func eachBrokenFileFailsWithItsExactErrorAndLeavesTheStoreAsItWas(name: String) async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        #expect(await ecbrates(["import", FixturePaths.daily.path], store: store).status == 0)
        let before = try StoreProbe(url: store).ratesByDay()
        let file = FixturePaths.broken.appendingPathComponent("\(name).xml")
        let expected = try String(
            contentsOf: FixturePaths.broken.appendingPathComponent("\(name).expected"), encoding: .utf8)
        let run = await ecbrates(["import", file.path], store: store)
        #expect(run.status == 65, "\(run)")
        // The .expected file starts with the file's name; the command names it as it was given.
        #expect(run.err == "Error: \(FixturePaths.broken.path)/\(expected)", "\(run.err)")
        let after = StoreProbe(url: store)
        #expect(try after.integrityCheck() == "ok")
        // The broken files' good days (2019) may be stored; nothing the store held changes.
        let stored = try after.ratesByDay()
        #expect(before.allSatisfy { stored[$0.key] == $0.value })
    }

    @Test(arguments: 0..<6)
    func mutatedFilesNeverCrashOrHangAndTheStoreStaysSound(batch: Int) throws {
        var generator = SeededGenerator(seed: 7_000 + UInt64(batch))
        let originals = try [FixturePaths.ninetyDays, FixturePaths.daily].map { try Data(contentsOf: $0) }
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let probe = StoreProbe(url: store)
        var imported = 0, refused = 0
        for index in 0..<50 {
            let original = originals[index % originals.count]
            let (mutant, how) = Mutation.apply(
                to: original, count: Int.random(in: 1...3, using: &generator), using: &generator)
            let file = dir.file("mutant-\(batch)-\(index).xml")
            try mutant.write(to: file)
            let run = try SpawnedProcess.run(
                CommandRun.executable, ["import", file.path, "--store", store.path], timeout: 30)
            let label = "mutant \(index) (\(how))"
            #expect(
                run.signal == nil,
                "\(label) ended by signal \(run.signal ?? 0) (a crash, or killed after 30 s): \(run.err)")
            #expect(run.status == 0 || run.status == 65, "\(label): exit \(String(describing: run.status)): \(run.err)")
            if run.status == 0 { imported += 1 }
            if run.status == 65 {
                refused += 1
                let message = run.err.split(separator: "\n").last.map(String.init) ?? ""
                #expect(message.hasPrefix("Error: \(file.path):"), "\(label): \(run.err)")
            }
            #expect(try probe.integrityCheck() == "ok", "\(label)")
            try? FileManager.default.removeItem(at: file)
        }
        #expect(imported + refused == 50)
        #expect(refused > 0, "the mutations broke some files")
    }
}

/// Ways to damage a file: a flipped byte, a cut, a line twice or gone, attributes swapped.
enum Mutation {
    static func apply(to data: Data, count: Int, using generator: inout SeededGenerator) -> (Data, String) {
        var bytes = [UInt8](data)
        var done: [String] = []
        for _ in 0..<count {
            switch Int.random(in: 0..<6, using: &generator) {
            case 0 where !bytes.isEmpty:
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[at] = UInt8.random(in: 0...255, using: &generator)
                done.append("byte \(at) changed")
            case 1 where !bytes.isEmpty:
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                bytes.removeSubrange(at...)
                done.append("cut at \(at)")
            case 2, 3:
                var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
                guard lines.count > 1 else { continue }
                let at = Int.random(in: 0..<lines.count, using: &generator)
                if Int.random(in: 0..<2, using: &generator) == 0 {
                    lines.insert(lines[at], at: at)
                    done.append("line \(at + 1) twice")
                } else {
                    lines.remove(at: at)
                    done.append("line \(at + 1) deleted")
                }
                bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
            case 4:
                // currency="X" rate="Y" → rate="Y" currency="X": still a good file.
                bytes = rewriteRates(bytes, times: 3) { q1, code, q2, rate in
                    "rate=\(q2)\(rate)\(q2) currency=\(q1)\(code)\(q1)"
                }
                done.append("attributes swapped")
            default:
                // currency="X" rate="Y" → currency="Y" rate="X": the values in each other's place.
                bytes = rewriteRates(bytes, times: 1) { q1, code, q2, rate in
                    "currency=\(q1)\(rate)\(q1) rate=\(q2)\(code)\(q2)"
                }
                done.append("values swapped")
            }
        }
        return (Data(bytes), done.joined(separator: ", "))
    }

    /// Rewrites the first `times` rate elements' `currency="…" rate="…"` with `replacement`
    /// (given each quote and value).
    private static func rewriteRates(
        _ bytes: [UInt8], times: Int,
        _ replacement: (Substring, Substring, Substring, Substring) -> String
    ) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        let pattern = /currency=(["'])([A-Z]{3})\1 rate=(["'])([0-9.]+)\3/
        return Array(text.replacing(pattern, maxReplacements: times) { replacement($0.1, $0.2, $0.3, $0.4) }.utf8)
    }
}
