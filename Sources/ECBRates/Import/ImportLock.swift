import Foundation

/// Makes imports into one store take turns, across processes: an exclusive `flock` on
/// `<store>.lock`, which holds the holder's process ID. The system lets go of it when the
/// process ends, however it ends, so a killed import never leaves a stale lock.
public final class ImportLock {
    /// The lock file.
    public let url: URL
    private var descriptor: Int32 = -1

    /// The lock of the store at `storeURL`.
    public init(storeURL: URL) {
        url = URL(fileURLWithPath: storeURL.path + ".lock")
    }

    deinit { release() }

    /// Takes the lock, waiting up to `seconds` for another import to finish; throws
    /// ``ImportLockError/busy(processID:)`` when it does not.
    public func acquire(waitingUpTo seconds: Double) throws {
        guard descriptor < 0 else { return }
        let directory = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ImportLockError.unavailable(path: url.path, reason: String(cString: strerror(errno)))
        }
        let deadline = Date().addingTimeInterval(max(0, seconds))
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw ImportLockError.unavailable(path: url.path, reason: reason)
            }
            if Date() >= deadline {
                let holder = Self.processID(in: fd)
                close(fd)
                throw ImportLockError.busy(processID: holder)
            }
            usleep(50_000)
        }
        descriptor = fd
        let text = "\(getpid())\n"
        ftruncate(fd, 0)
        _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    /// Lets go of the lock (also done when the lock goes away, or the process ends).
    public func release() {
        guard descriptor >= 0 else { return }
        ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
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
        case .busy(let processID?): return "another import is running (pid \(processID))"
        case .busy(nil): return "another import is running"
        case .unavailable(let path, let reason): return "cannot lock \(path): \(reason)"
        }
    }

    public var errorDescription: String? { description }
}
