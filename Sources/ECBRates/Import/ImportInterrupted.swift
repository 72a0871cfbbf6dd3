import EurofxrefFeed
import Foundation
import ManagedStore
import Synchronization

/// An import stopped by an error, with what it stored before it.
struct ImportInterrupted: Error, Sendable {
    let underlying: any Error
    let partial: ImportReport
}
