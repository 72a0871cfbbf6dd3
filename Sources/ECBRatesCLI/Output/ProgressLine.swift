import ECBRates
import EurofxrefFeed
import Foundation

/// A line on standard error that shows an import's progress, redrawn at most ten times a second.
///
/// `@unchecked Sendable`: `lastDraw` is touched only under `lock`.
final class ProgressLine: @unchecked Sendable {
    private let console: Console
    private let lock = NSLock()
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var drawn = false

    init(console: Console) { self.console = console }

    func update(source: String, _ progress: ImportProgress) {
        lock.lock()
        defer { lock.unlock() }
        let now = ContinuousClock.now
        guard now - lastDraw >= .milliseconds(100) else { return }
        lastDraw = now
        drawn = true
        let rate = progress.seconds > 0 ? Int(Double(progress.rates) / progress.seconds) : 0
        let name = URL(fileURLWithPath: source).lastPathComponent
        console.err("\r\u{1B}[2K\(name): \(progress.days) days, \(progress.rates) rates, \(rate) rates/s")
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { console.err("\r\u{1B}[2K") }
    }
}
