import ECBRates
import Foundation

/// The in-process half of `scripts/bench`: each subcommand measures one thing and prints its
/// figures as one JSON object on stdout. `scripts/bench` runs them, repeats them, and makes the
/// table.
@main
struct BenchMain {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard !arguments.isEmpty else {
            FileHandle.standardError.write(
                Data(
                    "usage: ecbrates-bench insert [--count N] [--batch N] [--unique] [--history] [--undo] --store PATH | import FILE --store PATH [--history on|off] [--method object|batch] | parse FILE | query --store PATH [--lookups N] | stack FILE --store PATH --stack S [--workers N] [--chunk-days N] | convert --store PATH --input FILE | many-to-many --store PATH [--owners N] [--links N] [--sql-first] | defaults\n"
                        .utf8))
            exit(64)
        }
        let command = arguments.removeFirst()
        func option(_ name: String) -> String? {
            guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
            return arguments[index + 1]
        }
        do {
            let figures: [String: Double]
            switch command {
            case "parse":
                guard let path = arguments.first(where: { !$0.hasPrefix("--") }) else {
                    throw BenchmarkError("parse needs a file")
                }
                figures = try ParseBenchmark.run(path: path)
            case "insert":
                let store = URL(
                    fileURLWithPath: option("--store") ?? NSTemporaryDirectory() + "ecbrates-bench-insert.sqlite")
                figures = try await InsertBenchmark.run(
                    count: Int(option("--count") ?? "") ?? 221_000, batch: Int(option("--batch") ?? "") ?? 1_000,
                    unique: arguments.contains("--unique"), history: arguments.contains("--history"),
                    undo: arguments.contains("--undo"), storeURL: store)
            case "import":
                guard let file = arguments.first, let store = option("--store") else {
                    throw BenchmarkError("import needs FILE --store PATH [--history on|off] [--method object|batch]")
                }
                figures = try await ImportBenchmark.run(
                    file: file, storeURL: URL(fileURLWithPath: store),
                    history: option("--history") != "off",
                    method: ImportMethod(rawValue: option("--method") ?? "") ?? ImportOptions().method)
            case "stack":
                guard
                    let file = arguments.first(where: {
                        !$0.hasPrefix("--") && $0 != option("--store") && $0 != option("--stack")
                            && $0 != option("--workers") && $0 != option("--chunk-days")
                    }),
                    let store = option("--store"), let stack = ContextStack(rawValue: option("--stack") ?? "")
                else {
                    throw BenchmarkError("stack needs FILE --store PATH --stack siblings|child|nested")
                }
                figures = try await StackBenchmark.run(
                    file: file, storeURL: URL(fileURLWithPath: store), stack: stack,
                    workers: option("--workers").flatMap { Int($0) },
                    chunkDays: option("--chunk-days").flatMap { Int($0) })
            case "defaults":
                let options = ImportOptions()
                figures = ["workers": Double(options.workers), "chunk_days": Double(options.chunkDays)]
            case "convert":
                guard let store = option("--store"), let input = option("--input") else {
                    throw BenchmarkError("convert needs --store PATH --input FILE")
                }
                figures = try await ConvertBenchmark.run(
                    storeURL: URL(fileURLWithPath: store), input: input,
                    now: Date(timeIntervalSince1970: 1_790_848_800))
            case "many-to-many":
                guard let store = option("--store") else { throw BenchmarkError("many-to-many needs --store PATH") }
                figures = try ManyToManyBenchmark.run(
                    storeURL: URL(fileURLWithPath: store), owners: Int(option("--owners") ?? "") ?? 10_000,
                    links: Int(option("--links") ?? "") ?? 10, sqlFirst: arguments.contains("--sql-first"))
            case "query":
                guard let store = option("--store") else { throw BenchmarkError("query needs --store PATH") }
                let lookups = Int(option("--lookups") ?? "") ?? 5_000
                figures = try await MainActor.run {
                    try QueryBenchmark.run(storeURL: URL(fileURLWithPath: store), lookups: lookups)
                }
            default:
                FileHandle.standardError.write(Data("ecbrates-bench: unknown benchmark '\(command)'\n".utf8))
                exit(64)
            }
            let json = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
            print(String(decoding: json, as: UTF8.self))
        } catch {
            FileHandle.standardError.write(Data("ecbrates-bench: \(error)\n".utf8))
            exit(1)
        }
    }
}
