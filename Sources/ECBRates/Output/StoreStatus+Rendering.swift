import Foundation

extension StoreStatus: RenderableAnswer {
    /// `2026-11-22T08:00:00Z`.
    static func stamp(_ date: Date) -> String { date.formatted(.iso8601) }

    /// The lines of the text, as label and value.
    public var fields: [(String, String)] {
        let status = self
        var fields: [(String, String)] = [("store", store + (storeLocation.map { " (\($0.reason))" } ?? ""))]
        if let first = status.firstDay, let last = status.lastDay {
            fields += [
                ("days", "\(status.days) (\(first)..\(last))"), ("rates", "\(status.rates)"),
                ("currencies", "\(status.currencies)"),
            ]
        } else {
            fields += [("days", "0 (empty: run 'ecbrates import')")]
        }
        let freshness: String
        if status.isUpToDate {
            freshness = "up to date (rates of \(status.dueDay) are the newest due)"
        } else if let first = status.missingBusinessDays.first {
            let count = status.missingBusinessDays.count
            let missing =
                count == 1 ? "1 business day missing, \(first)" : "\(count) business days missing, from \(first) to \(status.dueDay)"
            freshness = "out of date: \(missing) (\(status.ageDays) day\(status.ageDays == 1 ? "" : "s") behind)"
        } else if status.lastDay != nil {
            // Its newest day is the newest due, but days inside are missing (listed below).
            freshness = "up to its newest day (rates of \(status.dueDay) are the newest due), but with holes"
        } else {
            freshness = "empty"
        }
        fields.append(("freshness", freshness))
        if !status.holes.isEmpty {
            let listed =
                status.holes.prefix(10).map(\.description).joined(separator: ", ")
                + (status.holes.count > 10 ? ", …" : "")
            fields.append(
                (
                    "holes",
                    "\(status.holes.count) business day\(status.holes.count == 1 ? "" : "s") without rates inside the stored days: \(listed); run 'ecbrates import hist' to fill them"
                ))
        }
        if status.firstDay != nil {
            fields.append(
                (
                    "history",
                    status.history.gapText.map { "incomplete: " + $0 }
                        ?? "complete from \(status.history.shouldBeginText)"
                ))
        }
        if let run = status.lastRun {
            var text = "\(run.outcome), started \(Self.stamp(run.startedAt))"
            if let finished = run.finishedAt {
                text += String(format: ", took %.2f s", finished.timeIntervalSince(run.startedAt))
            }
            text += ": \(run.source)"
            if run.outcome != "running" {
                text += " (\(run.rates) rates, \(run.inserted) new, \(run.corrected) corrected)"
            }
            if run.outcome == "running" { text += " (process \(run.processID))" }
            fields.append(("last import", text))
            if let error = run.error { fields.append(("last error", error)) }
        } else {
            fields.append(("last import", "none"))
        }
        return fields
    }

    public var json: JSONText {
        do {
            let status = self
            var pairs: [(String, JSONText)] = [
                ("store", .string(store)), ("storeSource", storeLocation.map { .string($0.origin.rawValue) } ?? .null),
                ("firstDay", status.firstDay.map { .string($0.description) } ?? .null),
                ("lastDay", status.lastDay.map { .string($0.description) } ?? .null),
                ("days", .number(Double(status.days))),
                ("rates", .number(Double(status.rates))), ("currencies", .number(Double(status.currencies))),
                ("upToDate", .bool(status.isUpToDate)), ("dueDay", .string(status.dueDay.description)),
                ("missingBusinessDays", .array(status.missingBusinessDays.map { .string($0.description) })),
                ("holes", .array(status.holes.map { .string($0.description) })),
                ("ageDays", .number(Double(status.ageDays))),
                (
                    "history",
                    .object([
                        ("complete", .bool(status.history.isComplete)),
                        ("shouldBegin", .string(status.history.shouldBegin.description)),
                        ("asked", .bool(status.history.isAsked)),
                        ("missingBusinessDays", .number(Double(status.history.missingBusinessDays))),
                    ])
                ),
            ]
            if let run = status.lastRun {
                pairs.append(
                    (
                        "lastImport",
                        .object([
                            ("source", .string(run.source)), ("outcome", .string(run.outcome)),
                            ("startedAt", .string(Self.stamp(run.startedAt))),
                            ("finishedAt", run.finishedAt.map { .string(Self.stamp($0)) } ?? .null),
                            ("rates", .number(Double(run.rates))), ("new", .number(Double(run.inserted))),
                            ("corrected", .number(Double(run.corrected))),
                            ("error", run.error.map { .string($0) } ?? .null),
                        ])
                    ))
            } else {
                pairs.append(("lastImport", .null))
            }
            return JSONText.object(pairs)
        }
    }

    public var csvRows: [[String]] {
        do {
            let status = self
            // One header and one row, a column per figure (lists of days separated by spaces).
            let run = status.lastRun
            let columns: [(String, String)] = [
                ("store", store), ("store_source", storeLocation?.origin.rawValue ?? ""),
                ("first_day", status.firstDay.map(\.description) ?? ""),
                ("last_day", status.lastDay.map(\.description) ?? ""),
                ("days", "\(status.days)"), ("rates", "\(status.rates)"), ("currencies", "\(status.currencies)"),
                ("up_to_date", status.isUpToDate ? "true" : "false"), ("due_day", status.dueDay.description),
                ("missing_business_days", status.missingBusinessDays.map(\.description).joined(separator: " ")),
                ("holes", status.holes.map(\.description).joined(separator: " ")), ("age_days", "\(status.ageDays)"),
                ("history_complete", status.history.isComplete ? "true" : "false"),
                ("history_should_begin", status.history.shouldBegin.description),
                ("history_missing_business_days", "\(status.history.missingBusinessDays)"),
                ("last_import_source", run?.source ?? ""), ("last_import_outcome", run?.outcome ?? ""),
                ("last_import_started_at", run.map { Self.stamp($0.startedAt) } ?? ""),
                ("last_import_finished_at", run?.finishedAt.map(Self.stamp) ?? ""),
                ("last_import_rates", run.map { "\($0.rates)" } ?? ""),
                ("last_import_new", run.map { "\($0.inserted)" } ?? ""),
                ("last_import_corrected", run.map { "\($0.corrected)" } ?? ""), ("last_import_error", run?.error ?? ""),
            ]
            return [columns.map(\.0), columns.map(\.1)]
        }
    }

    public var text: String { TextTable.render(fields.map { [$0.0 + ":", $0.1] }) }
}
