import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One HTTP request whose body goes, as it arrives, into a temporary file of ours.
///
/// Not `URLSession.download(for:)`: on Linux (swift-corelibs-foundation) a download task makes
/// its temporary file in `/tmp` when it starts and leaves it there, empty, when the request fails.
/// A nightly cron job on a machine whose network is down would leave one per attempt, every
/// night. Here the file is made when the answer's headers arrive and removed on any failure.
final class FileDownload: NSObject, URLSessionDataDelegate, Sendable {
    /// What the transfer has brought so far; guarded by the mutex (the session calls the
    /// delegate on its own queue, the task is started from the caller's).
    private struct State {
        var file: URL?
        var handle: FileHandle?
        var response: URLResponse?
        var writeFailure: (any Error)?
        var finished: CheckedContinuation<(URL, URLResponse), any Error>?
    }

    private let state = Mutex(State())
    /// The directory the temporary file goes in.
    private let directory: URL

    private init(directory: URL) {
        self.directory = directory
    }

    /// Sends `request` in a session made with `configuration`; returns the file holding the
    /// body (the caller removes it) and the answer. Throws URLSession's error, or
    /// ``FileDownload/WriteFailure`` when the body cannot be written.
    static func run(_ request: URLRequest, configuration: URLSessionConfiguration,
                    directory: URL = FileManager.default.temporaryDirectory) async throws -> (URL, URLResponse) {
        let download = FileDownload(directory: directory)
        // The session keeps its delegate until it is invalidated, after the task ends.
        let session = URLSession(configuration: configuration, delegate: download, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                download.state.withLock { $0.finished = continuation }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// The body could not be written to the temporary file (the disk is full, say).
    struct WriteFailure: Error {
        let file: URL
        let underlying: any Error
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let opened = state.withLock { state -> Bool in
            state.response = response
            do {
                let file = try newFile()
                state.file = file
                state.handle = try FileHandle(forWritingTo: file)
                return true
            } catch let failure as WriteFailure {
                state.writeFailure = failure
                return false
            } catch {
                state.writeFailure = WriteFailure(file: state.file ?? directory, underlying: error)
                return false
            }
        }
        completionHandler(opened ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let written = state.withLock { state -> Bool in
            guard let handle = state.handle, state.writeFailure == nil else { return false }
            do {
                try handle.write(contentsOf: data)
                return true
            } catch {
                state.writeFailure = WriteFailure(file: state.file ?? directory, underlying: error)
                return false
            }
        }
        if !written { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (finished, result) = state.withLock { state -> (CheckedContinuation<(URL, URLResponse), any Error>?, Result<(URL, URLResponse), any Error>) in
            let finished = state.finished
            state.finished = nil
            var closeFailure: (any Error)?
            if let handle = state.handle {
                do { try handle.close() } catch { closeFailure = error }
                state.handle = nil
            }
            if let failure = state.writeFailure ?? error ?? closeFailure.map({ WriteFailure(file: state.file ?? directory, underlying: $0) }) {
                if let file = state.file { try? FileManager.default.removeItem(at: file) }
                return (finished, .failure(failure))
            }
            guard let response = state.response ?? task.response else {
                if let file = state.file { try? FileManager.default.removeItem(at: file) }
                return (finished, .failure(URLError(.badServerResponse)))
            }
            if let file = state.file { return (finished, .success((file, response))) }
            // An answer that never reached the delegate still gets its (empty) file.
            return (finished, Result { (try newFile(), response) })
        }
        finished?.resume(with: result)
    }

    /// Makes a new, empty temporary file.
    private func newFile() throws -> URL {
        let file = directory.appendingPathComponent("ecbrates-download-\(UUID().uuidString).xml")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw WriteFailure(file: file, underlying: CocoaError(.fileWriteUnknown))
        }
        return file
    }
}
