import Foundation

/// Where a command's result goes: standard output (no path, or `-`), or a file that appears
/// whole or not at all. The text goes to a temporary file beside the target (`.name.XXXXXX`),
/// which ``commit()`` flushes to disk and renames over the target; any failed write, flush or
/// rename throws ``OutputError`` and removes the temporary file, so a full disk never leaves a
/// cut file where a whole one is expected. A symbolic link is followed (the file it names is
/// replaced, the link kept); a target that is not a regular file (a device such as `/dev/null`,
/// a FIFO) is written in place, since renaming over it would replace the device itself.
///
/// `@unchecked Sendable`: written by one queue at a time (the exporter's background queue, or
/// the command's task), and committed after the last write; `descriptor` and `committed`
/// change only in `commit()` and `deinit`.
final class OutputFile: @unchecked Sendable {
    /// The target's path, or nil for standard output.
    let path: String?
    private let console: Console
    private let temporaryPath: String?
    /// The file the rename replaces: `path`, with symbolic links resolved.
    private var targetPath: String?
    private var descriptor: Int32 = -1
    private var committed = false

    /// Output to `path` (nil or `-`: standard output).
    init(path: String?, console: Console) throws {
        self.console = console
        guard let path, path != "-" else {
            self.path = nil
            temporaryPath = nil
            return
        }
        self.path = path
        var target = path
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) != S_IFREG {
                let descriptor = open(path, O_WRONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw OutputError(path: path, errno: errno) }
                self.descriptor = descriptor
                temporaryPath = nil
                return
            }
            if let resolved = realpath(path, nil) {
                target = String(cString: resolved)
                free(resolved)
            }
        }
        self.targetPath = target
        let url = URL(fileURLWithPath: target)
        let directory = url.deletingLastPathComponent().path
        var template = Array((directory + "/." + url.lastPathComponent + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw OutputError(path: path, errno: errno) }
        self.descriptor = descriptor
        temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        fchmod(descriptor, 0o644 & ~Self.umask)
    }

    /// The process's file-creation mask (read by setting it and setting it back).
    private static let umask: mode_t = {
        let mask = Foundation.umask(0o022)
        Foundation.umask(mask)
        return mask
    }()

    /// Writes `text`; throws when the file (or standard output) cannot take it.
    func write(_ text: String) throws {
        guard let path else {
            console.data(text)
            try console.checkOutput()
            return
        }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw OutputError(path: path, errno: errno)
            }
            offset += written
        }
        bytes.removeAll()
    }

    /// Flushes the file to disk and puts it in place of the target.
    func commit() throws {
        guard let path else { return try console.checkOutput() }
        // A device or FIFO has nothing to flush to disk (fsync fails with EINVAL there).
        if temporaryPath != nil, fsync(descriptor) != 0 { throw OutputError(path: path, errno: errno) }
        let closed = close(descriptor)
        descriptor = -1
        if closed != 0 { throw OutputError(path: path, errno: errno) }
        if let temporaryPath, let targetPath, rename(temporaryPath, targetPath) != 0 {
            throw OutputError(path: path, errno: errno)
        }
        committed = true
    }

    /// Writes with `body`, then commits; if anything fails, removes the temporary file at once
    /// (not when the last reference goes, which may come after the process has exited) and
    /// rethrows.
    func write<T>(_ body: (OutputFile) async throws -> T) async throws -> T {
        do {
            let result = try await body(self)
            try commit()
            return result
        } catch {
            discard()
            throw error
        }
    }

    /// Closes and removes the temporary file, if it is still there.
    func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if !committed, let temporaryPath { unlink(temporaryPath) }
        committed = true
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if !committed, let temporaryPath { unlink(temporaryPath) }
    }
}
