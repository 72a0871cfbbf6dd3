import Foundation
import TestSupport
import Testing

/// Issue 37: `serve --tls-cert FILE --tls-key FILE` speaks HTTPS itself (libmicrohttpd with
/// GnuTLS): the PyPI Frankfurter client, which speaks only https, talks to it directly, trusting
/// a certificate authority the test makes.
@Suite(.serialized) struct TLSTests {
    /// A CA, and a certificate it signs for 127.0.0.1 and localhost: (ca.pem, server.pem, server.key).
    static func certificates(in directory: TemporaryDirectory) throws -> (ca: URL, cert: URL, key: URL) {
        let script = """
            set -e
            cd "$1"
            openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj "/CN=ecbrates test CA"
            openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=localhost"
            printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\nbasicConstraints=CA:FALSE\\n' > ext
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile ext
            """
        let run = try SpawnedProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script, "sh", directory.url.path])
        try #require(run.status == 0, "openssl: \(run.err)")
        return (directory.file("ca.pem"), directory.file("server.pem"), directory.file("server.key"))
    }

    @Test func theFrankfurterClientTalksHTTPSToTheServerDirectly() async throws {
        try #require(PythonTools.missingPackages == nil, "\(PythonTools.missingPackages ?? "")")
        let directory = TemporaryDirectory()
        let (ca, cert, key) = try Self.certificates(in: directory)
        let served = try await ServedStore(["--tls-cert", cert.path, "--tls-key", key.path])
        #expect(served.process.errorSoFar.contains("on https://127.0.0.1:"), "\(served.process.errorSoFar)")
        let run = try SpawnedProcess.run(
            PythonTools.withPackages,
            [
                PythonTools.serverScript("frankfurter_client_check.py"), "https://127.0.0.1:\(served.port)",
                FixturePaths.history.path, "2026", "60", "--ca", ca.path,
            ])
        #expect(run.status == 0, "\(run.out.suffix(2_000)) \(run.err.suffix(2_000))")
        #expect(run.out.split(separator: "\n").last?.hasPrefix("ok ") == true, "\(run.out.suffix(500))")
        // curl, by the name the certificate carries.
        try Self.expectCurlAnswersOverHTTPS(served, trusting: ca)
    }

    /// Issue 46: beside an HTTPS server, `--health-listen` answers /healthz and /metrics (and
    /// nothing else) in plain HTTP, so that a health check with no TLS client can ask.
    @Test func aHealthListenerAnswersHealthzAndMetricsInPlainHTTPBesideHTTPS() async throws {
        let directory = TemporaryDirectory()
        let (ca, cert, key) = try Self.certificates(in: directory)
        let served = try await ServedStore([
            "--tls-cert", cert.path, "--tls-key", key.path, "--health-listen", "127.0.0.1:0",
        ])
        var healthPort = 0
        Waiting.until(timeout: .seconds(10)) {
            let match = served.process.errorSoFar.firstMatch(
                of: /health checks \(\/healthz, \/metrics\) on http:\/\/127\.0\.0\.1:(\d+)\//)
            healthPort = match.flatMap { Int($0.1) } ?? 0
            return healthPort != 0
        }
        try #require(healthPort != 0 && healthPort != served.port, "\(served.process.errorSoFar)")
        let health = try RawHTTP.get("/healthz", port: healthPort)
        #expect(health.status == 200, "\(health.body)")
        let metrics = try RawHTTP.get("/metrics", port: healthPort)
        #expect(metrics.status == 200 && metrics.body.contains("ecbrates_http_requests_total"), "\(metrics.body)")
        let other = try RawHTTP.get("/2024-03-28?symbols=USD", port: healthPort)
        #expect(other.status == 404 && other.body == "--health-listen answers /healthz and /metrics only\n")
        // The main port still speaks HTTPS only.
        try Self.expectCurlAnswersOverHTTPS(served, trusting: ca)
    }

    /// curl, trusting `ca`, gets a day's rate over HTTPS by the certificate's name; then the
    /// server stops cleanly.
    static func expectCurlAnswersOverHTTPS(_ served: ServedStore, trusting ca: URL) throws {
        let curl = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/curl"),
            ["-s", "--cacert", ca.path, "https://localhost:\(served.port)/2024-03-28?symbols=USD"])
        #expect(curl.out == #"{"amount":1,"base":"EUR","date":"2024-03-28","rates":{"USD":1.0811}}"# + "\n")
        let ended = try served.stop()
        #expect(ended.status == 0)
    }

    @Test func aMissingKeyOrANonPEMFileIsRefusedByName() async throws {
        let directory = TemporaryDirectory()
        let (_, cert, key) = try Self.certificates(in: directory)
        let alone = try CommandRun.process(["serve", "--tls-cert", cert.path, "--store", "/nonexistent.sqlite"])
        #expect(
            alone.status == 64 && alone.err.hasPrefix("Error: '--tls-cert <file>' needs '--tls-key <file>'"), "\(alone)"
        )
        let notPEM = directory.file("key.txt")
        try Data("not a key".utf8).write(to: notPEM)
        let bad = try CommandRun.process([
            "serve", "--listen", "127.0.0.1:0", "--tls-cert", cert.path, "--tls-key", notPEM.path,
        ])
        #expect(bad.err.hasPrefix("Error: '--tls-key <file>' \(notPEM.path): not PEM (no -----BEGIN line)"), "\(bad)")
        #expect(bad.status == 64)
        let swapped = try CommandRun.process([
            "serve", "--listen", "127.0.0.1:0", "--tls-cert", key.path, "--tls-key", cert.path,
        ])
        #expect(swapped.status == 64 && swapped.err.contains("were the key and the certificate swapped?"), "\(swapped)")
    }
}
