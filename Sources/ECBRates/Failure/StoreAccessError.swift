import Foundation

/// A store file this user may not read (its mode, its owner): said so, with both, rather than
/// SQLite's "unable to open database file" or a misleading "read-only".
public struct StoreAccessError: Error, Sendable, CustomStringConvertible {
    /// The store's path.
    public let path: String
    /// Its permission bits (`0000`), and its owner's user ID, when they could be read.
    public let mode: UInt16?
    public let owner: UInt32?

    /// The error for `path`, with its mode and owner read from the file system.
    public init(path: String) {
        self.path = path
        var info = stat()
        if stat(path, &info) == 0 {
            mode = UInt16(info.st_mode & 0o7777)
            owner = info.st_uid
        } else {
            mode = nil
            owner = nil
        }
    }

    public var description: String {
        let details =
            mode.map { mode in
                " (mode " + String(format: "%04o", mode) + (owner.map { ", owner uid \($0)" } ?? "") + ")"
            } ?? ""
        return
            "cannot read the store \(path): permission denied\(details); ask its owner to make it readable, or give another --store"
    }
}
