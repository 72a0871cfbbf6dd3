import Foundation
import TestSupport
import Testing

/// `serve` under systemd socket activation, as systemd starts it: a socket already bound and
/// listening on descriptor 3, `LISTEN_FDS=1` and `LISTEN_PID` naming the server's own process
/// (set between fork and exec, as systemd does). It serves that socket, and its start line
/// names the socket's address as a URL and says where the socket came from (issue 35, 8: it
/// read `on http://socket 3 from systemd/`).
@Suite struct SocketActivationTests {
    @Test func aSocketFromSystemdIsServedAndItsAddressNamed() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let script = #"""
            import http.client, os, socket, sys, time
            binary, store = sys.argv[1], sys.argv[2]
            listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            listener.bind(("127.0.0.1", 0))
            listener.listen(16)
            port = listener.getsockname()[1]
            read_end, write_end = os.pipe()
            pid = os.fork()
            if pid == 0:
                if listener.fileno() != 3:
                    os.dup2(listener.fileno(), 3)
                os.set_inheritable(3, True)
                os.dup2(write_end, 2)
                env = dict(os.environ, LISTEN_FDS="1", LISTEN_PID=str(os.getpid()), ECBRATES_NOW="2026-10-01T12:00:00Z")
                os.execve(binary, [binary, "serve", "--store", store], env)
            os.close(write_end)
            listener.close()
            errors = os.fdopen(read_end)
            first = errors.readline()
            expected = f"serving {store} on http://127.0.0.1:{port}/ (socket 3 from systemd) (Ctrl-C stops)\n"
            assert first == expected, (first, expected)
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/2024-03-28?symbols=USD")
            answer = connection.getresponse()
            body = answer.read()
            assert answer.status == 200 and b'"USD":1.0811' in body, (answer.status, body)
            os.kill(pid, 15)
            _, status = os.waitpid(pid, 0)
            assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
            # Descriptor 3 a file, not a socket: refused at once, not served with failing accepts.
            file = os.open(store, os.O_RDONLY)
            read_end, write_end = os.pipe()
            pid = os.fork()
            if pid == 0:
                if file != 3:
                    os.dup2(file, 3)
                os.set_inheritable(3, True)
                os.dup2(write_end, 2)
                env = dict(os.environ, LISTEN_FDS="1", LISTEN_PID=str(os.getpid()))
                os.execve(binary, [binary, "serve", "--store", store], env)
            os.close(write_end)
            errors = os.fdopen(read_end).read()
            _, status = os.waitpid(pid, 0)
            assert os.WIFEXITED(status) and os.WEXITSTATUS(status) != 0, (status, errors)
            assert "socket 3 (from systemd)" in errors and "Socket operation on non-socket" in errors, errors
            print("ok")
            """#
        let run = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, CommandRun.executable.path, store.path])
        #expect(run.status == 0 && run.out == "ok\n", "\(run.out) \(run.err)")
    }
}
