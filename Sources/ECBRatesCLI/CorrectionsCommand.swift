import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates corrections`: the corrections imports made to published rates, newest first.
enum CorrectionsCommand: Command {
    static let format = CommonOptions.format([.text, .json, .csv])
    static let since = TypedOption<CalendarDay>.day("--since", help: "Only corrections of rates of this day or later.")
    static let currency = TypedOption<String>.currency("--currency", help: "Only corrections of this currency.")

    static let name = "corrections"
    static let spec = CommandSpec(
        name: name,
        abstract: "List the corrections the ECB made to rates already stored, newest first.",
        discussion: """
        An import that finds a stored rate published again with another value stores the new value and
        records the correction: the day, the currency, the old and new value, and the import that made
        it. 'ecbrates rate --as-of <time>' answers with the values from before a correction. A store
        written by a release before corrections were recorded lists those made since it was upgraded.
        """,
        options: [currency.spec, since.spec, format.spec, CommonOptions.store.spec],
        format: format)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try arguments[Self.format] ?? .text
        let currency = try arguments[Self.currency]
        let since = try arguments[Self.since]
        let store = try QuerySupport.openStore(arguments, context: context)
        let list = try await QuerySupport.ask(store, context: context) { try $0.corrections(currency: currency, since: since) }
        switch format {
        case .json:
            context.console.out(JSONText.array(list.map {
                .object([("day", .string($0.day.description)), ("currency", .string($0.currency)),
                         ("old", .decimal($0.oldRate)), ("new", .decimal($0.newRate)),
                         ("correctedAt", .string(AsOfMoment.text($0.correctedAt))), ("source", .string($0.source))])
            }).text + "\n")
        case .csv:
            context.console.out(CSVText.line(["day", "currency", "old", "new", "corrected_at", "source"])
                + list.map { CSVText.line(["\($0.day)", $0.currency, "\($0.oldRate)", "\($0.newRate)", AsOfMoment.text($0.correctedAt), $0.source]) }.joined())
        default:
            if list.isEmpty {
                context.console.out("No corrections recorded" + (currency.map { " for \($0)" } ?? "") + (since.map { " since \($0)" } ?? "") + ".\n")
            } else {
                context.console.out(TextTable.render([["day", "currency", "old", "new", "corrected at", "by"]]
                    + list.map { ["\($0.day)", $0.currency, "\($0.oldRate)", "\($0.newRate)", AsOfMoment.text($0.correctedAt), $0.source] },
                    rightAligned: [2, 3]))
            }
        }
        return ExitCode.success
    }
}
