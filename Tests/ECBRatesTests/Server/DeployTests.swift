import Foundation
import TestSupport
import Testing

/// Issue 37, with real processes: the Kubernetes manifests of deploy/ pass kubernetes-validate;
/// three `serve` replicas behind nginx, with deploy/nginx/ecbrates.conf itself, lose no answer
/// when one is killed under wrk and revalidate with 304s after a no-op import; and the container
/// image builds from the checkout, runs, answers, stops on SIGTERM and keeps its store on its
/// volume. Issue 46: the image with TLS is healthy by its own HEALTHCHECK and answers https as
/// the ECB's file says; deploy/prometheus's alert rules pass promtool and name only metrics that
/// /metrics exports; docs/deploy.md's commands run as written from a clean clone. A check that
/// cannot run here (podman cannot start any container) is shown as skipped, with its reason
/// (`Test.cancel`), never as passed.
@Suite(.serialized) struct DeployTests {
    static let deploy = FixturePaths.root.appendingPathComponent("Tests/ECBRatesTests/Deploy")

    /// The release binary when scripts/test built it, else the debug one.
    static var binary: URL {
        let release = FixturePaths.root.appendingPathComponent(".build/release/ecbrates")
        return FileManager.default.isExecutableFile(atPath: release.path) ? release : CommandRun.executable
    }

    @Test func theKubernetesManifestsAreValid() throws {
        try #require(PythonTools.missingPackages == nil, "\(PythonTools.missingPackages ?? "")")
        let run = try SpawnedProcess.run(Self.deploy.appendingPathComponent("kubernetes_check.sh"), [], timeout: 300)
        #expect(run.status == 0, "\(run.out)\(run.err)")
    }

    @Test func nginxInFrontOfThreeReplicasLosesNothingWhenOneIsKilledAndRevalidates() throws {
        let run = try SpawnedProcess.run(
            PythonTools.system, [Self.deploy.appendingPathComponent("replicas_check.py").path, Self.binary.path],
            timeout: 600)
        #expect(run.status == 0, "\(run.out.suffix(3_000))\(run.err.suffix(3_000))")
        let summary = run.out.split(separator: "\n").last { $0.hasPrefix("replicas_check:") }
        #expect(summary != nil, "\(run.out.suffix(1_000))")
        print(summary ?? "")
    }

    /// The release binary, which the image packages (it has the Swift runtime linked in).
    static func releaseBinary() throws -> URL {
        let release = FixturePaths.root.appendingPathComponent(".build/release/ecbrates")
        try #require(
            FileManager.default.isExecutableFile(atPath: release.path),
            "no release binary at \(release.path): run scripts/build-release (scripts/test does)")
        return release
    }

    /// A check's output that starts with "SKIP:" (it could not run here, and says why) cancels
    /// the test, which Swift Testing reports as skipped with that reason.
    static func skipIfSkipped(_ run: SpawnedProcess) throws {
        if let skip = run.out.split(separator: "\n").last(where: { $0.hasPrefix("SKIP:") }) {
            try Test.cancel(Comment(rawValue: String(skip)))
        }
    }

    @Test func theContainerImageBuildsRunsWithTLSStopsAndKeepsItsStore() throws {
        let release = try Self.releaseBinary()
        let run = try SpawnedProcess.run(
            Self.deploy.appendingPathComponent("container_check.sh"), [release.path], timeout: 1_500)
        #expect(run.status == 0, "\(run.out.suffix(3_000))\(run.err.suffix(3_000))")
        try Self.skipIfSkipped(run)
        let last = run.out.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("container_check: OK"), "\(run.out.suffix(2_000))")
        for line in run.out.split(separator: "\n") where line.hasPrefix("container_check:") { print(line) }
    }

    @Test func theAlertRulesPassPromtoolAndNameExportedMetrics() throws {
        let run = try SpawnedProcess.run(
            Self.deploy.appendingPathComponent("prometheus_check.sh"), [Self.binary.path], timeout: 300)
        #expect(run.status == 0, "\(run.out.suffix(3_000))\(run.err.suffix(3_000))")
        let last = run.out.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("prometheus_check: OK"), "\(run.out.suffix(2_000))\(run.err.suffix(2_000))")
        print(last)
    }

    @Test func deployMdRunsAsWrittenFromACleanClone() throws {
        let release = try Self.releaseBinary()
        let run = try SpawnedProcess.run(
            PythonTools.system, [Self.deploy.appendingPathComponent("deploy_doc_check.py").path, release.path],
            timeout: 2_000)
        #expect(run.status == 0, "\(run.out.suffix(3_000))\(run.err.suffix(5_000))")
        try Self.skipIfSkipped(run)
        let last = run.out.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("deploy_doc_check: OK"), "\(run.out.suffix(2_000))\(run.err.suffix(3_000))")
        print(last)
    }
}
