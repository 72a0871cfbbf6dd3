import ECBRates
import Foundation
import Synchronization

/// `POST /api/convert`: a CSV of `date,amount,from,to` rows in the body, each converted on its
/// own day, answered as the CSV `ecbrates convert --input` writes (the input's columns, then
/// `rate`, `rate_day`, `result`), streamed as the converter writes it. A bad row within the
/// first 64 KiB of answer is a 422 naming its line; past them, the answer is cut short (no last
/// chunk) after a line `error: …` that names it.
struct BatchEndpoint {
    let store: RatesStore

    func answer(_ request: HTTPRequest, now: Date) throws -> EndpointAnswer {
        // The parameters of `convert` that apply to every row, read as the question reads them,
        // and how the body is written.
        // A row's own fields given as parameters: the caller meant GET's one conversion.
        if let row = request.query.first(where: { parameter in
            ConvertQuestion.fields.contains { $0.name == parameter.name }
                && !ConvertBatch.fields.contains { $0.name == parameter.name }
        }) {
            throw ServiceError(
                status: 400,
                "parameter \(row.name)=\(row.value) is not one of POST /api/convert's (\(ConvertBatch.fields.map(\.name).joined(separator: ", "))): a POST converts the rows of its CSV body (date,amount,from,to); GET /api/convert?amount=…&from=…&to=… converts one amount",
                code: "bad-parameter")
        }
        let settings = try ConvertBatch(parameters: request.query.map { (name: $0.name, value: $0.value) })
        // The body, as a file the converter's reader reads (a temporary file, unlinked at once).
        var template = Array((NSTemporaryDirectory() + "/ecbrates-batch-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw ServiceError(status: 500, "cannot hold the request body: errno \(errno)") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        // The conversion goes on after this returns (the answer streams): it closes the file.
        var handedOff = false
        defer { if !handedOff { close(descriptor) } }
        let written = request.body.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == request.body.count, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw ServiceError(status: 500, "cannot hold the request body")
        }
        var converter = BatchConverter(
            store: store, fallback: settings.fallback, precision: settings.precision, now: { now })
        converter.delimiter = settings.delimiter
        converter.amountFormat = settings.numberFormat
        converter.door = .api
        let reader = CSVRecordReader(descriptor: descriptor, name: "request body")
        let (stream, writer) = try HTTPBodyStream.make()
        handedOff = true
        let failure = Mutex<(any Error)?>(nil)
        let job = Handoff(value: (converter, reader))
        Task.detached {
            defer { close(descriptor) }
            do {
                _ = try await job.value.0.convert(job.value.1, name: "request body") { try writer.write($0) }
                writer.finish(succeeded: true)
            } catch {
                failure.withLock { $0 = error }
                // Cut short: the last line says why, and the missing last chunk tells an HTTP client.
                try? writer.write("error: \(ServiceError.message(of: error))\n")
                writer.finish(succeeded: false)
            }
        }
        // The status is decided on the first 64 KiB: a failure within them is a 422 (nothing
        // sent yet); past them the answer streams, and a failure cuts it short.
        let (_, finished) = stream.prefetch(atLeast: Self.decidingBytes)
        if finished, stream.succeeded != true, let error = failure.withLock({ $0 }) {
            if error is BatchConversionError || error is CSVRecordReader.SyntaxError {
                // What `convert --input` says of the same file, with its code.
                throw ServiceError(status: 422, "\(error)", code: FailureKind.code(of: error))
            }
            throw error
        }
        if finished {
            return EndpointAnswer(
                body: stream.prefetchedText, contentType: "text/csv; charset=utf-8", token: nil, freshness: .uncached)
        }
        var answer = EndpointAnswer(body: "", contentType: "text/csv; charset=utf-8", token: nil, freshness: .uncached)
        answer.stream = stream
        return answer
    }

    /// The bytes read before the answer's status is decided.
    static let decidingBytes = 65_536
}
