import Foundation
import TestSupport
import Testing

/// Store trouble: a store on a read-only file system, files that are not stores, and a store
/// from a newer ecbrates. Each gets a clear error, and nothing is written to it.
@Suite struct StoreTroubleTests {
    @Test func aReadOnlyStoreAnswersQueriesAndRefusesAnImportClearly() async throws {
        let dir = TemporaryDirectory()
        let prepared = try await PreparedStore.copy(into: dir)  // the full history
        let mount = dir.file("readonly"), out = dir.file("out")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let script = #"""
            mount -t tmpfs -o size=64m tmpfs "$MNT"
            cp "$PREPARED" "$MNT/rates.sqlite"
            mount -o remount,ro "$MNT"
            store="$MNT/rates.sqlite"
            set +e
            "$ECB" rate USD --date 2024-03-28 --store "$store" > "$OUT/rate.out" 2>&1; echo $? > "$OUT/rate.status"
            "$ECB" status --store "$store" > "$OUT/status.out" 2>&1; echo $? > "$OUT/status.status"
            "$ECB" import "$DAILY" --store "$store" > "$OUT/import.out" 2>&1; echo $? > "$OUT/import.status"
            printf 'rate USD --date 2024-03-28\nquit\n' | "$ECB" shell --store "$store" > "$OUT/shell.out" 2>&1; echo $? > "$OUT/shell.status"
            timeout --preserve-status -s INT 3 "$ECB" watch USD --store "$store" > "$OUT/watch.out" 2>&1; echo $? > "$OUT/watch.status"
            ls -a "$MNT" > "$OUT/files"
            """#
        let run = try Namespace.run(
            script,
            environment: [
                "MNT": mount.path, "OUT": out.path, "ECB": CommandRun.executable.path,
                "PREPARED": prepared.path, "DAILY": FixturePaths.daily.path,
                "ECBRATES_NOW": "2026-10-01T12:00:00Z",
            ])
        try #require(
            run.status == 0, "the namespace script failed (does this kernel allow user namespaces?): \(run.out)")
        func text(_ name: String) -> String {
            (try? String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }

        #expect(text("rate.status") == "0\n", "\(text("rate.out"))")
        #expect(text("rate.out") == "USD 1.0811 on 2024-03-28\n")
        #expect(text("status.status") == "0\n", "\(text("status.out"))")
        #expect(text("status.out").contains("rates:        221064\n"))
        #expect(text("import.status") == "74\n", "\(text("import.out"))")
        #expect(
            text("import.out")
                == "Error: the store \(mount.path)/rates.sqlite is read-only: it can be queried, not written\n")
        #expect(text("files") == ".\n..\nrates.sqlite\n")
        // The shell and watch read it too (they refused it with exit 74); the shell says imports
        // are not possible.
        #expect(text("shell.status") == "0\n", "\(text("shell.out"))")
        #expect(text("shell.out").contains("USD 1.0811 on 2024-03-28"), "\(text("shell.out"))")
        #expect(
            text("shell.out").contains("is read-only: queries are answered, imports refused"), "\(text("shell.out"))")
        #expect(text("watch.status") == "0\n", "\(text("watch.out"))")
        #expect(text("watch.out").contains("2026-09-30"), "\(text("watch.out"))")
    }

    @Test(arguments: ["random bytes", "a text file"])
    func aFileThatIsNotAStoreIsRefusedAndLeftAsItWas(kind: String) async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("notes.sqlite")
        var generator = SeededGenerator(seed: 7)
        let bytes =
            kind == "random bytes"
            ? Data((0..<8_192).map { _ in UInt8.random(in: 0...255, using: &generator) })
            : Data("shopping list\n- milk\n- bread\n".utf8)
        try bytes.write(to: file)
        for command in [["status"], ["rate", "USD"], ["import", FixturePaths.daily.path]] {
            let run = try CommandRun.process(command + ["--store", file.path])
            #expect(run.status == 74, "\(command): \(run)")
            #expect(
                run.err
                    == "Error: \(file.path) is not an ecbrates store: it is not an SQLite database; it was left untouched\n",
                "\(command)")
            #expect(try Data(contentsOf: file) == bytes, "\(command) left the file as it was")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["notes.sqlite"], "no files beside it")
    }

    @Test func aStoreFromANewerEcbratesIsRefusedAndLeftAsItWas() async throws {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", store.path, "UPDATE Z_METADATA SET Z_VERSION = Z_VERSION + 1"]
        try process.run()
        process.waitUntilExit()
        let bytes = try Data(contentsOf: store)
        for command in [["status"], ["rate", "USD"], ["import", FixturePaths.daily.path]] {
            let run = try CommandRun.process(command + ["--store", store.path])
            #expect(run.status == 74, "\(command): \(run)")
            #expect(
                run.err.hasPrefix("Error: \(store.path) was made by a newer version of ecbrates (store format "),
                "\(command): \(run.err)")
            #expect(try Data(contentsOf: store) == bytes, "\(command) left the store as it was")
        }
    }
}
