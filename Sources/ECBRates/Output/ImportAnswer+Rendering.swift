import Foundation

extension ImportAnswer: RenderableAnswer {
    public var text: String {
        var out = ""
        for report in reports {
            if let note = report.note { out += "note: \(note)\n" }
            out += Self.line(report) + "\n" + Self.corrections(report)
        }
        if let stopped {
            let why = interruptedBy.map { "interrupted by \($0)" } ?? "stopped by the error below"
            let stored =
                stopped.dryRun
                ? "; a real import would have stored \(stopped.storedDays) (dry run: nothing stored)"
                : " after storing \(stopped.storedDays)"
            out +=
                "\(stopped.source): \(why)\(stored): \(stopped.inserted) new, \(stopped.corrected) corrected, \(stopped.unchanged) unchanged\n"
            out += Self.corrections(stopped)
        }
        return out
    }

    /// `eurofxref-hist.xml: 7104 days 1999-01-04..2026-09-30, 221064 rates: 221064 new, 0 corrected, 0 unchanged in 0.48 s`
    static func line(_ report: ImportReport) -> String {
        if report.notModified { return "\(report.source): not modified since the last import; nothing to do" }
        let span =
            report.firstDay.map { first in
                report.lastDay.map { $0 == first ? " \(first)" : " \(first)..\($0)" } ?? " \(first)"
            } ?? ""
        var line =
            "\(report.source): \(report.days) day\(report.days == 1 ? "" : "s")\(span), \(report.rates) rate\(report.rates == 1 ? "" : "s"): "
        line +=
            "\(report.inserted) new, \(report.corrected) corrected, \(report.unchanged) unchanged in \(String(format: "%.2f", report.seconds)) s"
        if report.dryRun {
            line += " (dry run: nothing stored)"
        } else if !report.changesStore {
            line += "; nothing changed"
        }
        return line
    }

    static func sortedCorrections(_ report: ImportReport) -> [Correction] {
        report.corrections.sorted { ($0.day, $0.currency) < ($1.day, $1.currency) }
    }

    static func corrections(_ report: ImportReport) -> String {
        sortedCorrections(report).map { "  corrected \($0.currency) on \($0.day): \($0.old) → \($0.new)\n" }.joined()
    }

    static func json(_ report: ImportReport) -> [(String, JSONText)] {
        [
            ("source", .string(report.source)),
            ("days", .number(Double(report.days))),
            ("firstDay", report.firstDay.map { .string($0.description) } ?? .null),
            ("lastDay", report.lastDay.map { .string($0.description) } ?? .null),
            ("rates", .number(Double(report.rates))),
            ("new", .number(Double(report.inserted))),
            ("corrected", .number(Double(report.corrected))),
            ("unchanged", .number(Double(report.unchanged))),
            (
                "corrections",
                .array(
                    sortedCorrections(report).map {
                        .object([
                            ("day", .string($0.day.description)), ("currency", .string($0.currency)),
                            ("old", .decimal($0.old)), ("new", .decimal($0.new)),
                        ])
                    })
            ),
            ("notModified", .bool(report.notModified)),
            ("note", report.note.map { .string($0) } ?? .null),
            ("dryRun", .bool(report.dryRun)),
            ("seconds", .number((report.seconds * 1000).rounded() / 1000)),
        ]
    }

    public var json: JSONText {
        var entries = reports.map { JSONText.object(Self.json($0)) }
        if let stopped {
            entries.append(.object(Self.json(stopped) + [("stopped", .bool(true)), ("error", .string(error ?? ""))]))
        }
        return .object([("imports", .array(entries))])
    }

    public var csvRows: [[String]] {
        [["source", "days", "first_day", "last_day", "rates", "new", "corrected", "unchanged", "stopped", "error"]]
            + (reports.map { ($0, false) } + (stopped.map { [($0, true)] } ?? [])).map { report, stopped in
                [
                    report.source, "\(report.days)", report.firstDay.map(\.description) ?? "",
                    report.lastDay.map(\.description) ?? "",
                    "\(report.rates)", "\(report.inserted)", "\(report.corrected)", "\(report.unchanged)",
                    stopped ? "true" : "false",
                    stopped ? error ?? "" : "",
                ]
            }
    }
}
