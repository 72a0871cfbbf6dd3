import Foundation
import Synchronization

/// What `/metrics` reports, in Prometheus' text format: requests by route and status, a
/// latency histogram, and what the handler adds (newest stored day, last import).
package final class ServerMetrics: Sendable {
    /// The histogram's bucket bounds, in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]

    private struct State {
        var requests: [String: Int] = [:]
        var bucketCounts = [Int](repeating: 0, count: ServerMetrics.buckets.count)
        var count = 0
        var sum = 0.0
        /// MCP tool calls, by tool and outcome (`tool="rate",outcome="ok"`).
        var toolCalls: [String: Int] = [:]
    }
    private let state = Mutex(State())
    /// The access log's writer, whose written and dropped lines are reported (nil: no access log).
    private let accessLog = Mutex<LogWriter?>(nil)

    /// Empty metrics.
    package init() {}

    /// Counts one finished exchange.
    package func record(_ exchange: HTTPDaemon.Exchange) {
        let seconds =
            Double(exchange.duration.components.attoseconds) / 1e18 + Double(exchange.duration.components.seconds)
        let key = "route=\"\(exchange.route)\",status=\"\(exchange.status)\""
        state.withLock { state in
            state.requests[key, default: 0] += 1
            for (index, bound) in Self.buckets.enumerated() where seconds <= bound { state.bucketCounts[index] += 1 }
            state.count += 1
            state.sum += seconds
        }
    }

    /// Counts one MCP tool call (over `/mcp`), by its tool and whether it failed.
    package func recordToolCall(_ tool: String, failed: Bool) {
        let key = "tool=\"\(tool)\",outcome=\"\(failed ? "error" : "ok")\""
        state.withLock { $0.toolCalls[key, default: 0] += 1 }
    }

    /// Reports `writer`'s lines (written, dropped) as the access log's.
    package func countLines(of writer: LogWriter?) {
        accessLog.withLock { $0 = writer }
    }

    /// The text of `/metrics`, with `gauges` (name, help, value) after the request figures.
    func text(gauges: [(name: String, help: String, value: Double)]) -> String {
        let state = state.withLock { $0 }
        var out = "# HELP ecbrates_http_requests_total Requests answered, by route and status.\n"
        out += "# TYPE ecbrates_http_requests_total counter\n"
        for (labels, count) in state.requests.sorted(by: { $0.key < $1.key }) {
            out += "ecbrates_http_requests_total{\(labels)} \(count)\n"
        }
        out += "# HELP ecbrates_http_request_duration_seconds Time from request line to answer.\n"
        out += "# TYPE ecbrates_http_request_duration_seconds histogram\n"
        for (index, bound) in Self.buckets.enumerated() {
            out += "ecbrates_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(state.bucketCounts[index])\n"
        }
        out += "ecbrates_http_request_duration_seconds_bucket{le=\"+Inf\"} \(state.count)\n"
        out += "ecbrates_http_request_duration_seconds_sum \(state.sum)\n"
        out += "ecbrates_http_request_duration_seconds_count \(state.count)\n"
        out += "# HELP ecbrates_mcp_tool_calls_total MCP tool calls over /mcp, by tool and outcome (error: a result with isError).\n"
        out += "# TYPE ecbrates_mcp_tool_calls_total counter\n"
        for (labels, count) in state.toolCalls.sorted(by: { $0.key < $1.key }) {
            out += "ecbrates_mcp_tool_calls_total{\(labels)} \(count)\n"
        }
        let lines = accessLog.withLock { $0 }?.counts ?? LogWriter.Counts()
        out += "# HELP ecbrates_access_log_written_lines_total Access-log lines written.\n"
        out += "# TYPE ecbrates_access_log_written_lines_total counter\n"
        out += "ecbrates_access_log_written_lines_total \(lines.written)\n"
        out +=
            "# HELP ecbrates_access_log_dropped_lines_total Access-log lines dropped, their requests answered: the log's reader did not keep up, or a write failed.\n"
        out += "# TYPE ecbrates_access_log_dropped_lines_total counter\n"
        out += "ecbrates_access_log_dropped_lines_total \(lines.dropped)\n"
        for gauge in gauges {
            out += "# HELP \(gauge.name) \(gauge.help)\n# TYPE \(gauge.name) gauge\n\(gauge.name) \(gauge.value)\n"
        }
        return out
    }
}
