import Foundation
import TestSupport
import Testing

/// The Debian package, built by `scripts/package` from the release binary (`scripts/test` builds
/// it with `scripts/build-release` before the tests) and checked by `scripts/package-check` as
/// an operator meets it: its control fields and contents, lintian (no error), the binary, every
/// manual page and completion script, the systemd units (`systemd-analyze verify`), and an
/// install, removal and purge in a scratch root that leave a store where it was.
@Suite struct PackageTests {
    @Test func thePackageBuildsPassesLintianAndInstallsIntoAScratchRoot() throws {
        let release = FixturePaths.root.appendingPathComponent(".build/release/ecbrates")
        guard FileManager.default.isExecutableFile(atPath: release.path) else {
            Issue.record("no release binary at \(release.path): run scripts/build-release (scripts/test does)")
            return
        }
        let dir = TemporaryDirectory()
        let environment = [
            "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": dir.url.path,
            "LANG": "C.UTF-8",
        ]
        let package = try SpawnedProcess.run(
            FixturePaths.root.appendingPathComponent("scripts/package"),
            ["--binary", release.path, "--output", dir.file("out").path], environment: environment, timeout: 600)
        #expect(package.status == 0, "scripts/package:\n\(package.out)\n\(package.err)")
        let debs = try FileManager.default.contentsOfDirectory(atPath: dir.file("out").path).filter {
            $0.hasPrefix("ecbrates_") && $0.hasSuffix("_amd64.deb")
        }
        try #require(debs.count == 1, "\(debs)")
        let check = try SpawnedProcess.run(
            FixturePaths.root.appendingPathComponent("scripts/package-check"), [dir.file("out/\(debs[0])").path],
            environment: environment, timeout: 900)
        #expect(check.status == 0, "scripts/package-check:\n\(check.out)\n\(check.err)")
    }
}
