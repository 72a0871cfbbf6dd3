import ECBRatesServer
import Foundation
import TestSupport
import Testing

/// The access log never holds up an answer: `serve` with its standard error a pipe nobody reads
/// (access_log_check.py stall), `--access-log` moved by logrotate and reopened on SIGHUP
/// (access_log_check.py rotate), and the writer's own property: whatever the sink takes, lines
/// arrive whole and in order, or are dropped whole and counted.
@Suite(.serialized) struct AccessLogTests {
    @Test func aStalledStandardErrorDropsLinesNotRequestsAndSIGTERMStillStops() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let run = try SpawnedProcess.run(
            PythonTools.system,
            [PythonTools.serverScript("access_log_check.py"), "stall", CommandRun.executable.path, store.path])
        #expect(run.status == 0 && run.out.hasPrefix("ok: "), "\(run.out) \(run.err.suffix(3_000))")
        print(run.out)
    }

    @Test func aMovedAccessLogIsReopenedOnSIGHUPWithNoLineLost() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let run = try SpawnedProcess.run(
            PythonTools.system,
            [
                PythonTools.serverScript("access_log_check.py"), "rotate", CommandRun.executable.path, store.path,
                directory.url.path,
            ])
        #expect(
            run.status == 0 && run.out == "ok: 300 lines in access.log.1, 300 in the new access.log, none lost\n"
                || run.out.hasPrefix("ok: ") && run.out.hasSuffix(" none lost\n"),
            "\(run.out) \(run.err.suffix(3_000))")
    }

    @Test func anAccessLogThatCannotBeOpenedIsAUsageErrorNamingIt() throws {
        let run = try CommandRun.process([
            "serve", "--listen", "127.0.0.1:0", "--access-log", "/nonexistent-folder/access.log", "--store",
            "/nonexistent-folder/rates.sqlite",
        ])
        #expect(run.status == 64, "\(run)")
        #expect(
            run.err.contains(
                "'--access-log /nonexistent-folder/access.log': cannot open the access log /nonexistent-folder/access.log (No such file or directory)"
            ), "\(run.err)")
    }

    /// Seeded: random lines through a writer with a random bound into a pipe whose reader takes a
    /// random number of bytes and then stops (or reads all). Whatever happens, what the reader got
    /// is a subsequence of the lines, each whole and in order; written + dropped is every line;
    /// and writing never waited for the reader (the loop ends though the reader stopped).
    @Test func linesArriveWholeAndInOrderOrAreDroppedWholeAndCounted() throws {
        let seed = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...999_999)
        var generator = SeededGenerator(seed: seed)
        signal(SIGPIPE, SIG_IGN)  // a reader that stopped and closed its end: EPIPE, not the end of the tests
        for round in 0..<12 {
            var ends: [Int32] = [-1, -1]
            #expect(pipe(&ends) == 0)
            let (readEnd, writeEnd) = (ends[0], ends[1])
            let readsAll = Bool.random(using: &generator)
            let readLimit = Int.random(in: 0...200_000, using: &generator)
            let capacity = Int.random(in: 64...300_000, using: &generator)
            let count = Int.random(in: 100...20_000, using: &generator)
            let lines = (0..<count).map { index in
                "\(round) \(index) " + String(repeating: "x", count: Int.random(in: 0...120, using: &generator)) + "\n"
            }
            let received = Received()
            let reader = Thread {
                var buffer = [UInt8](repeating: 0, count: 4_096)
                var total = 0
                while readsAll || total < readLimit {
                    let n = read(readEnd, &buffer, readsAll ? buffer.count : min(buffer.count, readLimit - total))
                    if n <= 0 { break }
                    received.append(buffer[0..<n])
                    total += n
                }
                received.markDone()
            }
            reader.start()
            let writer = try LogWriter(.file("/proc/self/fd/\(writeEnd)"), capacity: capacity)
            for line in lines { writer.write(line) }
            let finished = writer.finish(within: .seconds(readsAll ? 30 : 0.5))
            let counts = writer.counts
            close(writeEnd)
            if !readsAll {
                // The reader stopped: end its wait by draining the pipe into nothing.
                var sink = [UInt8](repeating: 0, count: 65_536)
                _ = fcntl(readEnd, F_SETFL, O_NONBLOCK)
                while read(readEnd, &sink, sink.count) > 0 {}
            }
            Waiting.until(timeout: .seconds(30)) { received.isDone }
            close(readEnd)
            let context = "rebuild with ECBRATES_SEED=\(seed) (round \(round): \(count) lines, capacity \(capacity), \(readsAll ? "reads all" : "reads \(readLimit) bytes"))"
            #expect(counts.written + counts.dropped == count || !finished, "\(context): \(counts)")
            if readsAll { #expect(finished && counts.dropped <= count, "\(context)") }
            // What arrived: whole lines, a subsequence of those written, in order.
            let text = String(decoding: received.bytes, as: UTF8.self)
            var arrived = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "\n" }
            arrived.removeLast()  // after the last newline: "" (or a line cut by the reader's limit)
            var next = lines.startIndex
            for line in arrived {
                guard let found = lines[next...].firstIndex(of: String(line)) else {
                    Issue.record("\(context): \(line.prefix(40)) is not one of the lines, or out of order")
                    break
                }
                next = found + 1
            }
            if readsAll {
                #expect(arrived.count == counts.written, "\(context): \(arrived.count) lines read, \(counts)")
                #expect(text.hasSuffix("\n") || text.isEmpty, "\(context)")
            }
        }
    }
}

/// What the reader thread took from the pipe (`@unchecked Sendable`: guarded by its lock).
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var data: [UInt8] = []
    private var done = false
    func append(_ chunk: ArraySlice<UInt8>) { lock.withLock { data += chunk } }
    func markDone() { lock.withLock { done = true } }
    var isDone: Bool { lock.withLock { done } }
    var bytes: [UInt8] { lock.withLock { data } }
}
