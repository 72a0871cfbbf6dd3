import Synchronization

/// Keeps objects alive for the rest of the process.
///
/// Entity descriptions and stores are made a few times per program; keeping them forever lets a
/// ``ManagedObjectID`` refer to them without retaining them (IDs are copied on every path of a
/// save), and stay valid however long an ID outlives its model or container.
enum Immortal {
    private static let objects = Mutex<[AnyObject & Sendable]>([])

    static func keep(_ object: AnyObject & Sendable) {
        objects.withLock { $0.append(object) }
    }
}
