import Foundation
import TestSupport
import Testing

/// A currency the euro replaced that the ECB's files never held (GRD: the drachma joined in
/// 2001, and the reference rates here do not include it) is refused with its reason, as README
/// says of every replaced currency, not as an unknown code.
struct ReplacedCurrencyTests {
    @Test func theDrachmaIsRefusedWithItsReason() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let run = try CommandRun.process(["rate", "GRD", "--date", "2000-06-01", "--store", store.path])
        #expect(run.status == 64, "\(run)")
        #expect(
            run.err.hasPrefix(
                "Error: No rates of GRD in the store: the euro replaced the Greek drachma on 2001-01-01, and the ECB's reference rates here do not include it\n"
            ), "\(run.err)")
        let unknown = try CommandRun.process(["rate", "XYZ", "--store", store.path])
        #expect(unknown.err.hasPrefix("Error: Unknown currency 'XYZ'"), "\(unknown.err)")
    }
}
