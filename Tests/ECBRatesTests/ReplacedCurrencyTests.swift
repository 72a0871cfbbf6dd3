import Foundation
import TestSupport
import Testing

/// A currency the euro replaced that the ECB's files never held (GRD: the drachma joined in
/// 2001, and the reference rates here do not include it) has no rate before its conversion
/// rate applies, and says why, not as an unknown code; from that day on it has its fixed rate.
struct ReplacedCurrencyTests {
    @Test func theDrachmaIsRefusedWithItsReason() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let run = try CommandRun.process(["rate", "GRD", "--date", "2000-06-01", "--store", store.path])
        #expect(run.status == 65, "\(run)")
        #expect(
            run.err
                == "Error: GRD has no rate on 2000-06-01: its conversion rate to the euro applies from 2001-01-01, and the ECB's reference rates here do not include it before\n",
            "\(run.err)")
        let fixed = try CommandRun.process(["rate", "GRD", "--date", "2001-01-02", "--store", store.path])
        #expect(fixed.out == "GRD 340.75 on 2001-01-02 (fixed at 340.750 per euro since 2001-01-01)\n", "\(fixed)")
        let unknown = try CommandRun.process(["rate", "XYZ", "--store", store.path])
        #expect(unknown.err.hasPrefix("Error: Unknown currency 'XYZ'"), "\(unknown.err)")
    }
}
