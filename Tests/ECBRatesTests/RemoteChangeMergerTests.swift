import ECBRates
import EurofxrefFeed
import Foundation
import ManagedStore
import Synchronization
import TestSupport
import Testing

/// The query front-end's side of issue 15: another process's import reaches a store's view
/// context through the persistent history, merged like a save (what `shell` and `watch` rely on).
@Suite struct RemoteChangeMergerTests {
    /// A rate the view context holds takes the value another process's import corrected, and
    /// the merger reports that import's transactions (by the importer's author) once merged.
    @Test func anotherProcesssCorrectionReachesAnObjectTheViewContextHolds() async throws {
        let dir = TemporaryDirectory()
        let url = dir.file("rates.sqlite")
        let first = try CommandRun.process(["import", FixturePaths.ninetyDays.path, "--store", url.path, "--quiet"])
        #expect(first.status == 0, "\(first.err)")
        let store = try RatesStore(url: url, readOnly: true, observingOtherProcesses: true)
        let view = store.viewContext
        let day = CalendarDay("2026-08-28")!
        let held = try await view.perform { () throws -> ManagedObjectID in
            view.retainsRegisteredObjects = true  // so that the object is still held when the merge comes
            let rate = try view.fetch(
                FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date == day && $0.currencySymbol == "USD" }))[0]
            #expect(rate.exchangeRate == Decimal(string: "1.1643")!)
            return rate.objectID
        }
        let merged = Mutex<[PersistentHistoryTransaction]>([])
        let merger = try RemoteChangeMerger(store: store) { transactions in merged.withLock { $0 += transactions } }

        let corrected = try edited(
            FixturePaths.ninetyDays, replacing: #"<Cube time="2026-08-28"><Cube currency="USD" rate="1.1643"/>"#,
            with: #"<Cube time="2026-08-28"><Cube currency="USD" rate="1.1650"/>"#, in: dir, name: "90d.xml")
        let second = try CommandRun.process(["import", corrected.path, "--store", url.path, "--quiet"])
        #expect(second.status == 0, "\(second.err)")
        try await Waiting.until(timeout: .seconds(5)) { () async -> Bool in
            merged.withLock { $0.contains { $0.author == RateImporter.transactionAuthor } }
        }
        #expect(
            merged.withLock { $0.contains { $0.author == RateImporter.transactionAuthor } },
            "the import's chunk was merged")
        let value = await view.perform { () -> Decimal? in
            // Registered and refreshed by the merge: no fetch here.
            (view.registeredObject(for: held) as? Eurofxrefhist)?.exchangeRate
        }
        #expect(value == Decimal(string: "1.165")!)
        #expect(merger.token.transactionNumber >= (merged.withLock { $0.last?.transactionNumber } ?? .max))
    }
}
