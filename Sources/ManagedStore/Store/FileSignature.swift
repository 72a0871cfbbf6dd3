import Foundation

/// What identifies a file's contents cheaply: its inode, size and change time. Two equal
/// signatures taken around a read mean nobody wrote the file in between.
struct FileSignature: Sendable, Equatable {
    let inode: UInt64
    let size: Int64
    let changeSeconds: Int
    let changeNanoseconds: Int

    /// The file at `path` now; nil when it cannot be read (which then differs from any).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        changeSeconds = info.st_ctim.tv_sec
        changeNanoseconds = info.st_ctim.tv_nsec
    }
}
