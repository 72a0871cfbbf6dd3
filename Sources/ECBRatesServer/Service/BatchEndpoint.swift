import ECBRates
import Foundation
import Synchronization

/// `POST /api/convert`: a CSV of `date,amount,from,to` rows in the body, each converted on its
/// own day, answered as the CSV `ecbrates convert --input` writes (the input's columns, then
/// `rate`, `rate_day`, `result`). A bad row is a 422 naming its line and column.
struct BatchEndpoint {
    let store: RatesStore

    func answer(_ request: HTTPRequest, now: Date) throws -> EndpointAnswer {
        var parameters = RequestParameters(request)
        let fallback = try parameters.choice("fallback", RateFallback.self) ?? .previous
        let precision = try parameters.count("precision")
        try parameters.checkAllRead()
        // The body, as a file the converter's reader reads (a temporary file, unlinked at once).
        var template = Array((NSTemporaryDirectory() + "/ecbrates-batch-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw ServiceError(status: 500, "cannot hold the request body: errno \(errno)") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        defer { close(descriptor) }
        let written = request.body.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == request.body.count, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw ServiceError(status: 500, "cannot hold the request body")
        }
        let output = Mutex("")
        let converter = BatchConverter(store: store, fallback: fallback, precision: precision, now: { now })
        let reader = CSVRecordReader(descriptor: descriptor, name: "request body")
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let job = Handoff(value: (converter, reader))
        Task.detached {
            do {
                _ = try await job.value.0.convert(job.value.1, name: "request body") { text in
                    output.withLock { $0 += text }
                }
                outcome.withLock { $0 = .success(()) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        if case .failure(let error) = outcome.withLock({ $0 }) {
            if let error = error as? BatchConversionError { throw ServiceError(status: 422, "\(error)") }
            throw error
        }
        return EndpointAnswer(
            body: output.withLock { $0 }, contentType: "text/csv; charset=utf-8", token: nil, freshness: .uncached)
    }
}
