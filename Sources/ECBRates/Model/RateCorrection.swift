import EurofxrefFeed
import Foundation
import ManagedStore

/// A correction the ECB made to a published rate, as an import found it: the rate's value
/// before and after, the rate it changed (whose day and currency these are), and the import
/// run that made it.
public final class RateCorrection: ManagedObject {
    /// The value stored before the correction.
    @Attribute public var oldRate: Decimal
    /// The value the ECB published instead.
    @Attribute public var newRate: Decimal
    /// The corrected rate.
    @Relationship public var rate: Eurofxrefhist?
    /// The import run that made the correction.
    @Relationship public var run: ImportRun?
}
