import Foundation
import TestSupport
import Testing

/// Disk full, for real: the store on a tmpfs of a few megabytes, mounted in a namespace of the
/// test's own. The import fails with a clear error and exit 74; the store is intact, opens, and
/// holds whole days; with room made, a re-run completes.
@Suite struct DiskFullTests {
    @Test func anImportThatRunsOutOfSpaceFailsClearlyAndARerunWithSpaceCompletes() throws {
        let dir = TemporaryDirectory()
        let mount = dir.file("small"), out = dir.file("out")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: out.appendingPathComponent("full"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: out.appendingPathComponent("final"), withIntermediateDirectories: true)
        let script = #"""
            mount -t tmpfs -o size=6m tmpfs "$MNT"
            store="$MNT/rates.sqlite"
            set +e
            "$ECB" import "$HISTORY" --store "$store" > "$OUT/first.out" 2> "$OUT/first.err"; echo $? > "$OUT/first.status"
            df -k "$MNT" | tail -1 > "$OUT/df"
            cp "$MNT"/rates.sqlite* "$OUT/full/"
            "$ECB" status --store "$store" > "$OUT/status.out" 2>&1; echo $? > "$OUT/status.status"
            mount -o remount,size=256m "$MNT"
            "$ECB" import "$HISTORY" --store "$store" > "$OUT/second.out" 2>&1; echo $? > "$OUT/second.status"
            ls -la "$MNT" > "$OUT/ls"
            cp "$MNT"/rates.sqlite* "$OUT/final/"
            """#
        let run = try Namespace.run(
            script,
            environment: [
                "MNT": mount.path, "OUT": out.path, "ECB": CommandRun.executable.path,
                "HISTORY": FixturePaths.history.path,
            ])
        try #require(
            run.status == 0, "the namespace script failed (does this kernel allow user namespaces?): \(run.out)")
        func text(_ name: String) -> String {
            (try? String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }

        #expect(text("first.status") == "74\n", "\(text("first.out"))\(text("first.err"))")
        let store = out.appendingPathComponent("full/rates.sqlite")
        #expect(
            text("first.err").hasSuffix(
                "Error: the disk is full: cannot write the store \(mount.path)/rates.sqlite. What was saved before stays saved; free some space and run the command again\n"
            ),
            "\(text("first.err"))")
        #expect(text("first.out").contains("stopped by the error below after storing "), "\(text("first.out"))")

        // The store as the failed import left it: sound, and only whole days.
        let probe = StoreProbe(url: store)
        #expect(try probe.integrityCheck() == "ok")
        let stored = try probe.ratesByDay()
        #expect(!stored.isEmpty, "some chunks fit before the disk filled up")
        #expect(stored.count < historyByDay.count)
        #expect(
            stored.filter { $0.value != historyByDay[$0.key] }.isEmpty,
            "every stored day is whole and equal to the file's")
        #expect(text("status.status") == "0\n", "\(text("status.out"))")

        #expect(text("second.status") == "0\n", "\(text("second.out"))")
        let final = try StoreProbe(url: out.appendingPathComponent("final/rates.sqlite")).ratesByDay()
        #expect(final == historyByDay, "\(final.count) days; \(text("second.out")); \(text("ls"))")
    }
}
