import Foundation
import TestSupport
import Testing

/// Issue 37: a store is readable by every user who may read its file, with any SQLite client,
/// after every kind of import: ecbrates keeps the store's `-wal` and `-shm` files in place
/// (SQLite's `SQLITE_FCNTL_PERSIST_WAL`), which a reader who may not write the store's directory
/// needs and cannot make. The other user is `nobody` (setpriv) when the tests run as root; else
/// this user, with the store's directory made read-only while it reads.
@Suite(.serialized) struct SharedStoreReaderTests {
    static let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]
    static let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")

    /// Runs `executable` with `arguments` as the other user, to its end.
    static func runAsOther(_ executable: String, _ arguments: [String], in directory: URL) throws -> CommandRun {
        let child: SpawnedProcess
        if getuid() == 0 {
            child = try SpawnedProcess.run(setpriv, asNobody + [executable] + arguments)
        } else {
            chmod(directory.path, 0o555)
            defer { chmod(directory.path, 0o755) }
            child = try SpawnedProcess.run(URL(fileURLWithPath: executable), arguments)
        }
        return CommandRun(status: child.status ?? -1, out: child.out, err: child.err)
    }

    /// The number of rows of the `rates` view, counted by the store's owner. (Read-only, as
    /// docs/store.md says to open it: another program's read-write connection that closes last
    /// removes the log files, whoever owns it.)
    static func ownersCount(_ store: URL) throws -> String {
        let run = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), ["-readonly", store.path, "SELECT count(*) FROM rates"])
        #expect(run.status == 0, "\(run.err)")
        return run.out
    }

    /// The other user counts the `rates` view with Python's `sqlite3` (`mode=ro`) and with the
    /// `sqlite3` tool (`-readonly`); both must answer the owner's count.
    static func expectReadableByOthers(_ store: URL, after kind: String) throws {
        let expected = try ownersCount(store)
        let directory = store.deletingLastPathComponent()
        let python = try runAsOther(
            "/usr/bin/python3",
            [
                "-c",
                "import sqlite3, sys; print(sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True).execute('SELECT count(*) FROM rates').fetchone()[0])",
                store.path,
            ], in: directory)
        #expect(python.status == 0 && python.out == expected, "after \(kind), Python as another user: \(python)")
        let tool = try runAsOther(
            "/usr/bin/sqlite3", ["-readonly", store.path, "SELECT count(*) FROM rates"], in: directory)
        #expect(tool.status == 0 && tool.out == expected, "after \(kind), sqlite3 as another user: \(tool)")
        // The log's two files are there, with the store's own permissions.
        let mode = (try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? NSNumber)?
            .intValue
        for suffix in ["-wal", "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: store.path + suffix)
            #expect(
                (attributes[.posixPermissions] as? NSNumber)?.intValue == mode,
                "after \(kind): \(suffix) \(attributes[.posixPermissions] ?? "")")
        }
    }

    /// A store in a directory that only its owner writes (as /var/lib/ecbrates is).
    static func sharedDirectory() -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        chmod(directory.url.path, 0o755)
        return directory
    }

    static func importing(_ arguments: [String], store: URL) throws -> CommandRun {
        let run = try CommandRun.process(["import"] + arguments + ["--store", store.path])
        #expect(run.status == 0, "\(run)")
        return run
    }

    @Test func everyKindOfImportLeavesTheStoreReadableByOthers() throws {
        let directory = Self.sharedDirectory()
        let store = directory.file("rates.sqlite")
        _ = try Self.importing([FixturePaths.history.path, "--to", "2026-06-30"], store: store)
        try Self.expectReadableByOthers(store, after: "a full import")
        _ = try Self.importing([FixturePaths.ninetyDays.path, "--to", "2026-09-29"], store: store)
        try Self.expectReadableByOthers(store, after: "a 90-day import")
        _ = try Self.importing([FixturePaths.daily.path], store: store)
        try Self.expectReadableByOthers(store, after: "a daily import")
        let nothing = try Self.importing([FixturePaths.daily.path], store: store)
        #expect(nothing.out.contains("nothing changed") || nothing.out.contains("0 new"), "\(nothing)")
        try Self.expectReadableByOthers(store, after: "an import that changed nothing")
        // The owner's own query (read-write, the last connection to close) keeps them too.
        let query = try CommandRun.process(["rate", "USD", "--store", store.path])
        #expect(query.status == 0, "\(query)")
        try Self.expectReadableByOthers(store, after: "the owner's query")
    }

    @Test func anInterruptedImportLeavesTheStoreReadableByOthers() throws {
        let directory = Self.sharedDirectory()
        let store = directory.file("rates.sqlite")
        let probe = StoreProbe(url: store)
        let child = try SpawnedProcess.Running(
            CommandRun.executable,
            ["import", FixturePaths.history.path, "--chunk-days", "20", "--workers", "2", "--store", store.path])
        try #require(waitForRunningImport(probe, runs: 1) != nil, "the import never recorded its run")
        Waiting.until(timeout: .seconds(120)) { probe.storedRateCount() >= 30_000 || child.hasEnded }
        child.kill(SIGTERM)
        let result = try child.wait()
        #expect(result.status == 128 + SIGTERM, "\(result)")
        try Self.expectReadableByOthers(store, after: "an interrupted import")
    }

    @Test func theServersRefreshLeavesTheStoreReadableByOthers() async throws {
        let directory = Self.sharedDirectory(), mirror = TemporaryDirectory()
        let store = try RefreshTests.storeADayBehind(in: directory)
        try RefreshTests.writeNinetyDays(to: mirror, late: false)
        let server = try LoopbackServer(serving: mirror.url)
        let served = try await ServedStore(
            ["--refresh", "auto"], store: store,
            environment: ["ECBRATES_ECB_URL": server.url("/ok/").absoluteString])
        let refreshed = try Waiting.until(timeout: .seconds(30)) {
            try RawHTTP.get("/latest?symbols=USD", port: served.port).body.contains(#""date":"2026-09-30""#)
        }
        #expect(refreshed, "\(served.process.errorSoFar)")
        try Self.expectReadableByOthers(store, after: "the server's refresh, while it runs")
        let ended = try served.stop()
        #expect(ended.status == 0, "\(ended.err)")
        try Self.expectReadableByOthers(store, after: "the server's refresh, once it stopped")
    }

    /// `shell` and `watch`, run by a user who may not write the store, answer from it; watch
    /// sees what the owner's import brings.
    @Test func shellAndWatchWorkForAUserWhoCannotWriteTheStore() throws {
        let directory = Self.sharedDirectory()
        let store = directory.file("rates.sqlite")
        _ = try Self.importing([FixturePaths.history.path, "--to", "2026-09-29"], store: store)

        let shell = try Self.runShellAsOther(["rate USD --date 2024-03-28", "quit"], store: store)
        #expect(shell.status == 0 && shell.out.contains("USD 1.0811 on 2024-03-28"), "\(shell)")

        let watch = try Self.watchAsOther(store: store, in: directory)
        let first = watch.readLine(timeout: 30)
        #expect(first?.contains(#""date":"2026-09-29""#) == true, "\(first ?? "nothing")")
        chmod(directory.url.path, 0o755)
        _ = try Self.importing([FixturePaths.daily.path], store: store)
        if getuid() != 0 { chmod(directory.url.path, 0o555) }
        let next = watch.readLine(timeout: 30)
        #expect(
            next?.contains(#""date":"2026-09-30""#) == true && next?.contains("1.1355") == true, "\(next ?? "nothing")")
        watch.interrupt()
        let (status, errors) = watch.finish()
        chmod(directory.url.path, 0o755)
        #expect(status == 0, "\(errors)")
        #expect(!errors.contains("read-only"), "\(errors)")
    }

    /// Issue 46: a store shipped read-only, its file alone (no `-wal`, no `-shm`: a read-only
    /// volume, a package, a backup) in a folder the user cannot write. `rate`, `shell` and `watch`
    /// all answer from it (SQLite reads it as an immutable file); `shell` and `watch` say that
    /// later changes cannot be seen, and `watch` still stops cleanly on a signal.
    @Test func aStoreShippedAloneAndReadOnlyIsAnsweredByRateShellAndWatch() async throws {
        let directory = Self.sharedDirectory()
        let store = try await PreparedStore.copy(into: directory)
        // In WAL mode, as every store is, and closed: the file alone.
        let wal = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), [store.path, "PRAGMA journal_mode=WAL"])
        #expect(wal.out == "wal\n", "\(wal.out) \(wal.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["rates.sqlite"])
        chmod(store.path, 0o444)

        let rate = try Self.runAsOther(
            CommandRun.executable.path, ["rate", "USD", "--date", "2024-03-28", "--store", store.path],
            in: directory.url)
        #expect(rate.status == 0 && rate.out == "USD 1.0811 on 2024-03-28\n", "\(rate)")

        let shell = try Self.runShellAsOther(["rate USD --date 2024-03-28", "quit"], store: store)
        #expect(shell.status == 0 && shell.out.contains("USD 1.0811 on 2024-03-28"), "\(shell)")
        #expect(shell.err.contains("later changes to it cannot be seen"), "\(shell.err)")

        let watch = try Self.watchAsOther(store: store, in: directory)
        let first = watch.readLine(timeout: 30)
        #expect(first?.contains(#""date":"2026-09-30""#) == true, "\(first ?? "nothing")")
        watch.interrupt()
        let (status, errors) = watch.finish()
        chmod(directory.url.path, 0o755)
        #expect(status == 0, "\(errors)")
        #expect(
            errors.contains(
                "is read-only, in a folder this user cannot write and without its -shm file: it is read as it is, and later changes to it cannot be seen: watch shows the store as it is and will report no new day"
            ), "\(errors)")
        // Nothing was made beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["rates.sqlite"])
    }

    /// `ecbrates watch USD --format ndjson` on `store`, run by the other user (its directory
    /// made read-only when that user is this one).
    static func watchAsOther(store: URL, in directory: TemporaryDirectory) throws -> InteractiveProcess {
        let arguments = ["watch", "USD", "--format", "ndjson", "--store", store.path]
        if getuid() == 0 {
            return try InteractiveProcess(
                setpriv, arguments: asNobody + [CommandRun.executable.path] + arguments, directory: directory.url)
        }
        chmod(directory.url.path, 0o555)
        return try InteractiveProcess(CommandRun.executable, arguments: arguments, directory: directory.url)
    }

    /// Runs `ecbrates shell` as the other user with `lines` on its standard input.
    static func runShellAsOther(_ lines: [String], store: URL) throws -> CommandRun {
        let input = lines.joined(separator: "\n") + "\n"
        let script = "printf '%s' \"$1\" | \"$2\" shell --store \"$3\""
        return try runAsOther(
            "/bin/sh", ["-c", script, "sh", input, CommandRun.executable.path, store.path],
            in: store.deletingLastPathComponent())
    }
}
