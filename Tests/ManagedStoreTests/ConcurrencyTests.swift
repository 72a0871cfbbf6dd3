import CSQLite
import Foundation
import ManagedStore
import Synchronization
import TestSupport
import Testing

/// Behaviours 2 and 3: reads beside a busy writer; perform, performAndWait and async perform.
@Suite struct ConcurrencyTests {
    /// Another connection holds the store's exclusive write lock with an uncommitted row, and a
    /// background save is queued behind it, waiting for the lock inside the coordinator's
    /// writer: a viewContext fetch still completes, seeing only committed rows.
    @Test func viewContextFetchCompletesWhileTheWriterIsBusy() async throws {
        let dir = TemporaryDirectory()
        // The queued save waits for the lock while the view context's fetch runs on the main
        // queue, which the other suites running beside this one share (their imports merge
        // there): a busy timeout long enough for that queue, however loaded.
        let container = try makeContainer(in: dir, timeout: 120)
        try await insertNotes(["a"], into: container)

        var raw: OpaquePointer?
        #expect(sqlite3_open(dir.file("Test.sqlite").path, &raw) == SQLITE_OK)
        defer { sqlite3_close(raw) }
        #expect(
            sqlite3_exec(
                raw,
                "BEGIN EXCLUSIVE; INSERT INTO Note (Z_PK, Z_OPT, title, stars, created) VALUES (1000, 1, 'uncommitted', 0, 0)",
                nil, nil, nil) == SQLITE_OK)

        let worker = container.newBackgroundContext()
        let save = Task {
            try await worker.perform {
                let note = Note(context: worker)
                note.title = "b"
                try worker.save()  // waits for the lock (busy timeout 120 s)
            }
        }
        try await Task.sleep(for: .milliseconds(200))  // let the save reach the lock

        let view = container.viewContext
        let whileBusy = try await view.perform { try view.fetch(FetchRequest<Note>()).map(\.title) }
        #expect(whileBusy == ["a"])

        #expect(sqlite3_exec(raw, "COMMIT", nil, nil, nil) == SQLITE_OK)
        try await save.value
        let after = try await view.perform {
            try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)])).map(\.title)
        }
        #expect(after == ["a", "b", "uncommitted"])
    }

    @Test func performRunsBlocksInFIFOOrder() async {
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        let order = Mutex<[Int]>([])
        for index in 0..<500 {
            enqueue(on: context) { order.withLock { $0.append(index) } }
        }
        await context.perform {}
        #expect(order.withLock { $0 } == Array(0..<500))
    }

    @Test func mainQueuePerformRunsBlocksInFIFOOrder() async throws {
        let container = try makeContainer(in: nil)
        let order = Mutex<[Int]>([])
        for index in 0..<100 {
            enqueue(on: container.viewContext) { order.withLock { $0.append(index) } }
        }
        await container.viewContext.perform {}
        #expect(order.withLock { $0 } == Array(0..<100))
    }

    /// A deadlock here would hang the run: each test runs its contexts on a thread of its own
    /// and fails after 60 s without an answer (`Waiting.finishes`, not a `.timeLimit`, which
    /// also counts the time a test waits for Swift concurrency's pool).
    @Test func performAndWaitIsReentrantFromTheContextsOwnQueue() throws {
        let answers = try Waiting.finishes { () -> (Int, Int) in
            let context = ManagedObjectContext(concurrencyType: .privateQueue)
            let nested = context.performAndWait { context.performAndWait { context.performAndWait { 3 } } }
            let fromPerform = Mutex<Int?>(nil)
            let done = DispatchSemaphore(value: 0)
            context.perform {
                let value = context.performAndWait { 42 }
                fromPerform.withLock { $0 = value }
                done.signal()
            }
            done.wait()
            return (nested, fromPerform.withLock { $0 } ?? 0)
        }
        let (nested, fromPerform) = try #require(answers, "performAndWait deadlocked (no answer in 60 s)")
        #expect(nested == 3)
        #expect(fromPerform == 42)
    }

    @Test func performAndWaitOfAParentFromAChildBlockDoesNotDeadlock() throws {
        let count = try Waiting.finishes { () throws -> Int in
            let container = try makeContainer(in: nil)
            let parent = container.newBackgroundContext()
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = parent
            return try child.performAndWait {
                let note = Note(context: child)
                note.title = "x"
                try child.save()  // runs parent.performAndWait from the child's queue
                return try parent.performAndWait { try parent.count(for: FetchRequest<Note>()) }
            }
        }
        #expect(try #require(count, "the child's save deadlocked (no answer in 60 s)") == 1)
    }

    @Test func asyncPerformReturnsTheBlocksValueAndRethrows() async throws {
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        let value = await context.perform { "done" }
        #expect(value == "done")
        struct Failure: Error, Equatable {}
        await #expect(throws: Failure()) {
            try await context.perform { () throws(Failure) -> Int in throw Failure() }
        }
        let container = try makeContainer(in: nil)
        let stored = try await container.performBackgroundTask { context in
            let note = Note(context: context)
            note.title = "bg"
            try context.save()
            return try context.count(for: FetchRequest<Note>())
        }
        #expect(stored == 1)
    }
}

/// The fire-and-forget `perform`, called from synchronous code (in an async function Swift
/// picks the async overload, as with Core Data).
func enqueue(on context: ManagedObjectContext, _ block: @escaping @Sendable () -> Void) {
    context.perform(block)
}
