import Foundation
import TestSupport
import Testing

/// Hostile XML through the whole `ecbrates import` path: external entities are never resolved
/// (no file is read, no connection is made), and an entity bomb ends in an error, by itself and
/// in bounded memory.
@Suite struct HostileXMLTests {
    static let envelope =
        #"<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><Cube>"#

    @Test func externalEntitiesAreNeverResolvedNeitherFilesNorURLs() throws {
        let dir = TemporaryDirectory()
        let secret = dir.file("secret.txt")
        try "SECRET-7f3a9\n".write(to: secret, atomically: true, encoding: .utf8)
        let listener = try LoopbackListener()
        let url = "http://127.0.0.1:\(listener.port)/evil"
        let documents = [
            "file-entity": #"<!DOCTYPE e [<!ENTITY x SYSTEM "file://\#(secret.path)">]>"# + Self.envelope
                + #"<Cube time="2019-03-04"><Cube currency="USD" rate="&x;"/></Cube></Cube></gesmes:Envelope>"#,
            "url-entity": #"<!DOCTYPE e [<!ENTITY x SYSTEM "\#(url)/entity">]>"# + Self.envelope
                + #"<Cube time="2019-03-04">&x;</Cube></Cube></gesmes:Envelope>"#,
            "url-dtd": #"<!DOCTYPE gesmes:Envelope SYSTEM "\#(url)/dtd">"# + Self.envelope
                + #"<Cube time="2019-03-04"><Cube currency="USD" rate="1.1"/></Cube></Cube></gesmes:Envelope>"#,
            "parameter-entity": #"<!DOCTYPE e [<!ENTITY % p SYSTEM "\#(url)/parameter"> %p;]>"# + Self.envelope
                + "</Cube></gesmes:Envelope>",
            "xinclude": Self.envelope
                + #"<Cube time="2019-03-04"><xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="file://\#(secret.path)" parse="text"/><Cube currency="USD" rate="1.1"/></Cube></Cube></gesmes:Envelope>"#,
        ]
        for (name, text) in documents.sorted(by: { $0.key < $1.key }) {
            let file = dir.file("\(name).xml")
            try ("<?xml version=\"1.0\"?>\n" + text + "\n").write(to: file, atomically: true, encoding: .utf8)
            let store = dir.file("\(name).sqlite")
            let run = try SpawnedProcess.run(
                CommandRun.executable, ["import", file.path, "--store", store.path], timeout: 30)
            if name == "xinclude" {
                // XInclude is not processed: the include is an element the reader does not
                // understand inside a day, which is an error (nothing in the rates is skipped).
                #expect(run.status == 65, "\(name): \(run)")
                #expect(
                    run.err
                        == "Error: \(file.path):2:\(Self.envelope.utf8.count + 25): unexpected <include> (of namespace http://www.w3.org/2001/XInclude) in the day Cube of 2019-03-04; expected a rate <Cube currency=\"XXX\" rate=\"…\"/>\n",
                    "\(run.err)")
                #expect(try StoreProbe(url: store).ratesByDay() == [:])
            } else {
                #expect(run.status == 65, "\(name): \(run)")
                #expect(run.err.hasPrefix("Error: \(file.path):"), "\(name): \(run.err)")
                #expect(run.err.contains("the document declares a DTD"), "\(name): \(run.err)")
            }
            #expect(!(run.out + run.err).contains("SECRET-7f3a9"), "\(name)")
            if FileManager.default.fileExists(atPath: store.path) {
                #expect(
                    !(try StoreProbe(url: store).rows("SELECT exchangeRate FROM Eurofxrefhist").contains {
                        $0[0]?.contains("SECRET") == true
                    }))
            }
        }
        #expect(!listener.wasContacted, "no document made ecbrates connect to the URL it named")
    }

    @Test func anEntityBombEndsInAnErrorInBoundedMemory() throws {
        let dir = TemporaryDirectory()
        let bomb = FixturePaths.broken.appendingPathComponent("billion-laughs.xml")
        // The same bomb inside an ECB envelope, and a quadratic blow-up (one big entity used often).
        let big = String(repeating: "x", count: 100_000)
        let quadratic =
            #"<!DOCTYPE e [<!ENTITY a "\#(big)">]>"# + Self.envelope + #"<Cube time="2019-03-04">"#
            + String(repeating: "&a;", count: 10_000) + "</Cube></Cube></gesmes:Envelope>"
        let quadraticFile = dir.file("quadratic.xml")
        try ("<?xml version=\"1.0\"?>\n" + quadratic + "\n").write(to: quadraticFile, atomically: true, encoding: .utf8)
        for file in [bomb, quadraticFile] {
            let run = try SpawnedProcess.run(
                CommandRun.executable, ["import", file.path, "--store", dir.file("bomb.sqlite").path], timeout: 30)
            #expect(run.status == 65, "\(file.lastPathComponent): \(run)")
            #expect(run.err.contains("the document declares a DTD"), "\(run.err)")
            #expect(run.signal == nil, "\(file.lastPathComponent) did not end by itself within 30 s")
            #expect(run.peakMegabytes < 150, "\(file.lastPathComponent) used \(run.peakMegabytes) MB")
        }
    }
}

/// A TCP port on the loopback interface that listens and notes whether anyone connected.
final class LoopbackListener {
    let port: UInt16
    private let socket: Int32

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        guard bound == 0, listen(socket, 8) == 0 else {
            close(socket)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        self.socket = socket
        self.port = UInt16(bigEndian: address.sin_port)
    }

    /// True when a connection is waiting to be accepted.
    var wasContacted: Bool {
        let client = accept(socket, nil, nil)
        if client >= 0 { close(client) }
        return client >= 0
    }

    deinit { close(socket) }
}
