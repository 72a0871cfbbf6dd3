import Foundation
import Synchronization

/// Makes imports into one store take turns, across processes: an exclusive `flock` on
/// `<store>.lock`, which holds the holder's process ID. The system lets go of it when the
/// process ends, however it ends, so a killed import never leaves a stale lock.
public final class ImportLock: Sendable {
    /// The lock file.
    public let url: URL
    /// The open lock file while the lock is held, else -1.
    private let descriptor = Mutex<Int32>(-1)

    /// The lock of the store at `storeURL`.
    public init(storeURL: URL) {
        url = URL(fileURLWithPath: storeURL.path + ".lock")
    }

    deinit { release() }

    /// Takes the lock, waiting up to `seconds` for another import to finish; throws
    /// ``ImportLockError/busy(processID:)`` when it does not. Blocks the calling thread while it
    /// waits: from async code, await the async form instead.
    public func acquire(waitingUpTo seconds: Double) throws {
        let deadline = Date().addingTimeInterval(max(0, seconds))
        while try !attempt(giveUp: Date() >= deadline) { usleep(50_000) }
    }

    /// Takes the lock, waiting up to `seconds` for another import to finish, without holding a
    /// thread while it waits; throws ``ImportLockError/busy(processID:)`` when it does not, and
    /// ``ImportStopped`` when `interruption` is requested while it waits.
    public func acquire(waitingUpTo seconds: Double, interruption: ImportInterruption? = nil) async throws {
        let deadline = Date().addingTimeInterval(max(0, seconds))
        while try !attempt(giveUp: Date() >= deadline) {
            if let stop = interruption?.stop { throw stop }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Tries once to take the lock: true when taken; false when another import holds it and
    /// `giveUp` is false; ``ImportLockError/busy(processID:)`` when it holds it and `giveUp`.
    private func attempt(giveUp: Bool) throws -> Bool {
        try descriptor.withLock { descriptor in try attempt(giveUp: giveUp, holding: &descriptor) }
    }

    private func attempt(giveUp: Bool, holding descriptor: inout Int32) throws -> Bool {
        guard descriptor < 0 else { return true }
        let directory = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ImportLockError.unavailable(path: url.path, reason: String(cString: strerror(errno)))
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            defer { close(fd) }
            guard failure == EWOULDBLOCK || failure == EINTR else {
                throw ImportLockError.unavailable(path: url.path, reason: String(cString: strerror(failure)))
            }
            if giveUp { throw ImportLockError.busy(processID: Self.processID(in: fd)) }
            return false
        }
        descriptor = fd
        let text = "\(getpid())\n"
        ftruncate(fd, 0)
        _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
        return true
    }

    /// Lets go of the lock (also done when the lock goes away, or the process ends).
    public func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            ftruncate(descriptor, 0)
            flock(descriptor, LOCK_UN)
            close(descriptor)
            descriptor = -1
        }
    }

    private static func processID(in fd: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return Int(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Why an import could not take the store's lock.
public enum ImportLockError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// Another import holds it.
    case busy(processID: Int?)
    /// The lock file cannot be made or locked.
    case unavailable(path: String, reason: String)

    public var description: String {
        switch self {
        case .busy(let processID?):
            return
                "another import is running (pid \(processID)); try again when it ends, or wait for it with --wait SECONDS"
        case .busy(nil):
            return "another import is running; try again when it ends, or wait for it with --wait SECONDS"
        case .unavailable(let path, let reason): return "cannot lock \(path): \(reason)"
        }
    }

    public var errorDescription: String? { description }
}
