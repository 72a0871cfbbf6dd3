import Foundation
import TestSupport
import Testing

/// Outputs that cannot lie: every failed write (standard output, `--output`, a chart file)
/// exits 74 naming the path and the reason in words; `--output` appears whole or not at all;
/// `--output -` is standard output; a store another user shares read-only can be queried.
@Suite struct OutputFailureTests {
    static let now = ["ECBRATES_NOW": "2026-10-01T10:00:00Z"]

    /// Runs `ecbrates` through the shell, so that standard output can be redirected.
    func shell(_ command: String, store: URL, directory: TemporaryDirectory) throws -> CommandRun {
        let run = try SpawnedProcess.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", command],
            environment: [
                "ECB": CommandRun.executable.path, "STORE": store.path, "DIR": directory.url.path,
                "ECBRATES_NOW": "2026-10-01T10:00:00Z",
            ], timeout: 120)
        return CommandRun(status: run.status ?? -1, out: run.out, err: run.err)
    }

    @Test(arguments: [
        (
            #""$ECB" export --store "$STORE" > /dev/full"#,
            "Error: cannot write to standard output: No space left on device\n"
        ),
        (
            #""$ECB" rate USD --store "$STORE" > /dev/full"#,
            "Error: cannot write to standard output: No space left on device\n"
        ),
        (
            #""$ECB" series USD --format svg --store "$STORE" > /dev/full"#,
            "Error: cannot write to standard output: No space left on device\n"
        ),
        (
            #""$ECB" export --store "$STORE" --output /dev/full"#,
            "Error: cannot write /dev/full: No space left on device; nothing was written to it\n"
        ),
        (
            #""$ECB" export --store "$STORE" --output "$DIR/missing/rates.csv""#,
            "Error: cannot write {DIR}/missing/rates.csv: No such file or directory; nothing was written to it\n"
        ),
        (
            #""$ECB" series USD --chart --store "$STORE" --output "$DIR/missing/chart.txt""#,
            "Error: cannot write {DIR}/missing/chart.txt: No such file or directory; nothing was written to it\n"
        ),
    ])
    func aFailedWriteExitsSeventyFourAndSaysWhy(command: String, message: String) async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let run = try shell(command, store: store, directory: directory)
        #expect(run.status == 74, "\(run)")
        #expect(run.err == message.replacingOccurrences(of: "{DIR}", with: directory.url.path), "\(run)")
        #expect(!run.err.contains("NSCocoaErrorDomain"))
    }

    @Test func outputDashIsStandardOutput() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let run = try shell(
            #"cd "$DIR" && "$ECB" export --store "$STORE" --from 2026-09-30 --currencies USD --output -"#,
            store: store, directory: directory)
        #expect(run.status == 0, "\(run)")
        #expect(run.out == "date,currency,rate\n2026-09-30,USD,1.1355\n")
        #expect(!FileManager.default.fileExists(atPath: directory.file("-").path))
    }

    /// On a real full file system (a 1 MB tmpfs in a namespace of the test's own), an export
    /// fails, the file that was there before is left as it was, and no temporary file stays.
    @Test func anExportOntoAFullDiskLeavesThePreviousFileWhole() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let mount = directory.file("small"), out = directory.file("out")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let script = #"""
            mount -t tmpfs -o size=1m tmpfs "$MNT"
            printf 'the previous export\n' > "$MNT/rates.csv"
            set +e
            "$ECB" export --store "$STORE" --output "$MNT/rates.csv" > "$OUT/out" 2> "$OUT/err"; echo $? > "$OUT/status"
            cp "$MNT/rates.csv" "$OUT/after.csv"
            ls -a "$MNT" > "$OUT/ls"
            """#
        let run = try Namespace.run(
            script,
            environment: [
                "MNT": mount.path, "OUT": out.path, "ECB": CommandRun.executable.path,
                "STORE": store.path, "ECBRATES_NOW": "2026-10-01T10:00:00Z",
            ])
        try #require(
            run.status == 0, "the namespace script failed (does this kernel allow user namespaces?): \(run.out)")
        func text(_ name: String) -> String {
            (try? String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }
        #expect(text("status") == "74\n", "\(text("err"))")
        #expect(
            text("err")
                == "Error: cannot write \(mount.path)/rates.csv: No space left on device; nothing was written to it\n")
        #expect(text("after.csv") == "the previous export\n")
        #expect(text("ls") == ".\n..\nrates.csv\n", "no temporary file is left behind")
    }

    /// A store owned by another user, in a directory this user cannot write: queries answer.
    /// Run as `nobody` when the tests run as root; otherwise the directory is made read-only.
    @Test func aStoreSharedReadOnlyCanBeQueried() async throws {
        let directory = TemporaryDirectory()
        let shared = directory.file("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let store = try await PreparedStore.copy(into: directory)
        try FileManager.default.moveItem(at: store, to: shared.appendingPathComponent("rates.sqlite"))
        // Copied by cp, not by this process: a copy's open descriptor, inherited by another
        // test's fork, would make executing it fail with "text file busy".
        let copied = try SpawnedProcess.run(
            URL(fileURLWithPath: "/bin/cp"),
            [CommandRun.executable.path, shared.appendingPathComponent("ecbrates").path])
        try #require(copied.status == 0, "\(copied.err)")
        chmod(directory.url.path, 0o755)
        chmod(shared.appendingPathComponent("rates.sqlite").path, 0o444)
        chmod(shared.path, 0o555)
        defer { chmod(shared.path, 0o755) }
        let asOther = getuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        for command in ["rate USD --date 2024-03-28", "status", "export --from 2026-09-30 --currencies USD"] {
            let run = try shell(
                #"cd / && "# + asOther + #""$DIR/shared/ecbrates" "# + command
                    + #" --store "$DIR/shared/rates.sqlite""#,
                store: store, directory: directory)
            #expect(run.status == 0, "\(command): \(run)")
        }
        let rate = try shell(
            #"cd / && "# + asOther
                + #""$DIR/shared/ecbrates" rate USD --date 2024-03-28 --store "$DIR/shared/rates.sqlite""#,
            store: store, directory: directory)
        #expect(rate.out == "USD 1.0811 on 2024-03-28\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: shared.path).sorted()
        #expect(files == ["ecbrates", "rates.sqlite"], "nothing was written beside the store")
    }
}
