import ECBRates
import EurofxrefFeed
import Foundation

/// Lines gathered into pieces of about 64 KiB before they are written.
///
/// `@unchecked Sendable`: used by one queue at a time (the query's); `text` is touched only there.
final class LineBuffer: @unchecked Sendable {
    private let output: OutputFile
    private var text = ""

    init(output: OutputFile) {
        self.output = output
        text.reserveCapacity(70_000)
    }

    func add(_ line: String) throws {
        text += line
        if text.utf8.count >= 65_536 { try flush() }
    }

    func flush() throws {
        guard !text.isEmpty else { return }
        try output.write(text)
        text.removeAll(keepingCapacity: true)
    }
}
