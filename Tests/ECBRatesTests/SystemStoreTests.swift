import Foundation
import TestSupport
import Testing

/// The system-wide store the Debian package's timer keeps (/var/lib/ecbrates/rates.sqlite, here
/// `ECBRATES_SYSTEM_STORE`): every command uses it when the user has no store of their own and
/// names none, `status` says which store it used and why, and an import into it by a user who
/// may not write it says how to have a store of one's own.
@Suite struct SystemStoreTests {
    static func run(_ arguments: [String], _ environment: [String: String]) throws -> CommandRun {
        try CommandRun.process(arguments, environment: environment)
    }

    @Test func queriesUseTheSystemStoreUntilTheUserHasOne() async throws {
        let dir = TemporaryDirectory()
        let system = try await PreparedStore.copy(into: dir)
        let home = dir.file("home")
        let own = home.appendingPathComponent(".local/share/ecbrates/rates.sqlite")
        var environment = ["HOME": home.path, "ECBRATES_SYSTEM_STORE": system.path, "XDG_DATA_HOME": ""]

        let rate = try Self.run(["rate", "USD", "--date", "2024-03-28"], environment)
        #expect(rate.status == 0 && rate.out == "USD 1.0811 on 2024-03-28\n", "\(rate)")
        let status = try Self.run(["status"], environment)
        #expect(
            status.out.hasPrefix(
                "store:        \(system.path) (the system-wide store: you have none at \(own.path))\n"),
            "\(status)")
        let json = try Self.run(["status", "--format", "json"], environment)
        #expect(json.out.hasPrefix("{\"store\":\"\(system.path)\",\"storeSource\":\"system\","), "\(json)")
        let csv = try Self.run(["status", "--format", "csv"], environment)
        #expect(csv.out.hasPrefix("store,store_source,"), "\(csv)")
        #expect(csv.out.contains("\n\(system.path),system,"), "\(csv)")

        // The user makes a store of their own (the daily file's one day): it is theirs from now.
        let made = try Self.run(["import", FixturePaths.daily.path, "--quiet", "--store", own.path], environment)
        #expect(made.status == 0, "\(made)")
        let mine = try Self.run(["status"], environment)
        #expect(mine.out.hasPrefix("store:        \(own.path) (your default store)\n"), "\(mine)")
        let gone = try Self.run(["rate", "USD", "--date", "2024-03-28"], environment)
        #expect(gone.status != 0, "\(gone)")

        // ECBRATES_STORE and --store name a store whatever the user has.
        environment["ECBRATES_STORE"] = system.path
        let named = try Self.run(["status"], environment)
        #expect(named.out.hasPrefix("store:        \(system.path) (from ECBRATES_STORE)\n"), "\(named)")
        let option = try Self.run(["status", "--store", own.path], environment)
        #expect(option.out.hasPrefix("store:        \(own.path) (from --store)\n"), "\(option)")
    }

    @Test func xdgDataHomeNamesTheUsersOwnStore() async throws {
        let dir = TemporaryDirectory()
        let system = try await PreparedStore.copy(into: dir)
        let data = dir.file("data")
        let own = data.appendingPathComponent("ecbrates/rates.sqlite")
        let environment = [
            "HOME": dir.file("home").path, "ECBRATES_SYSTEM_STORE": system.path, "XDG_DATA_HOME": data.path,
        ]
        let before = try Self.run(["status"], environment)
        #expect(before.out.contains("(the system-wide store: you have none at \(own.path))"), "\(before)")
        #expect(
            try Self.run(["import", FixturePaths.daily.path, "--quiet", "--store", own.path], environment).status == 0)
        let after = try Self.run(["status"], environment)
        #expect(after.out.hasPrefix("store:        \(own.path) (your default store)\n"), "\(after)")
    }

    /// Without a system store, an import with no --store makes the user's own, as before.
    @Test func withoutASystemStoreAnImportMakesTheUsersOwn() throws {
        let dir = TemporaryDirectory()
        let home = dir.file("home")
        let environment = [
            "HOME": home.path, "ECBRATES_SYSTEM_STORE": dir.file("none/rates.sqlite").path, "XDG_DATA_HOME": "",
        ]
        let made = try Self.run(["import", FixturePaths.daily.path, "--quiet"], environment)
        #expect(made.status == 0, "\(made)")
        #expect(
            FileManager.default.fileExists(
                atPath: home.appendingPathComponent(".local/share/ecbrates/rates.sqlite").path))
    }

    /// A user who may read the system store but not write it: the import is refused before
    /// anything is touched, saying how to have a store of one's own (run as nobody when the
    /// tests run as root, who may write anything).
    @Test func anImportIntoTheSystemStoreByAUserWhoMayNotWriteItSaysWhatToDo() async throws {
        let dir = TemporaryDirectory()
        chmod(dir.url.path, 0o755)
        let system = try await PreparedStore.copy(into: dir)
        chmod(system.path, 0o644)
        let home = dir.file("nobody-home")
        let arguments = ["import", FixturePaths.daily.path]
        let run: CommandRun
        if getuid() == 0 {
            let child = try SpawnedProcess.run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--reuid=65534", "--regid=65534", "--clear-groups", CommandRun.executable.path] + arguments,
                environment: ["HOME": home.path, "ECBRATES_SYSTEM_STORE": system.path, "PATH": "/usr/bin:/bin"])
            run = CommandRun(status: child.status ?? -1, out: child.out, err: child.err)
        } else {
            chmod(dir.url.path, 0o555)
            defer { chmod(dir.url.path, 0o755) }
            run = try Self.run(
                arguments, ["HOME": home.path, "ECBRATES_SYSTEM_STORE": system.path, "XDG_DATA_HOME": ""])
        }
        let own = home.appendingPathComponent(".local/share/ecbrates/rates.sqlite").path
        #expect(run.status == 74, "\(run)")
        #expect(
            run.err
                == "Error: the system-wide store \(system.path) is read-only for you (the ecbrates-import timer keeps it up to date); to import into a store of your own, give --store or set ECBRATES_STORE ('ecbrates import --store \(own)' makes your default store, which every command then uses)\n",
            "\(run)")
        #expect(!FileManager.default.fileExists(atPath: own))
    }
}
