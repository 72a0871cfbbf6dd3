import Foundation
import ManagedStore
import TestSupport
import Testing

/// Query generations and persistent history of a coordinator with two stores: a pinned
/// context reads both stores as they were, and moves on in both; history is kept per store,
/// read from the token's store or the one store a request names, never from several as if
/// they were one history.
@Suite struct ConfigurationHistoryTests {
    static func names(_ context: ManagedObjectContext) throws -> [String] {
        try context.performAndWait {
            try context.fetch(FetchRequest<Periodical>()).map(\.name).sorted()
                + context.fetch(FetchRequest<Patron>()).map(\.name).sorted()
        }
    }

    static func save(_ periodical: String, _ patron: String, in container: PersistentContainer) throws {
        let worker = container.newBackgroundContext()
        try worker.performAndWait {
            Periodical(context: worker).name = periodical
            Patron(context: worker).name = patron
            try worker.save()
        }
    }

    /// Core Data: a context pinned with `.current` reads the generation it was pinned to until
    /// it saves, merges or is reset: here, of both stores at once.
    @Test func aPinnedContextReadsBothStoresAsTheyWere() throws {
        let dir = TemporaryDirectory()
        let container = try TwoStoreModel.container(in: dir)
        try Self.save("Nature", "Ada", in: container)
        let reader = container.newBackgroundContext()
        try reader.performAndWait { try reader.setQueryGenerationFrom(.current) }
        try Self.save("Science", "Grace", in: container)
        #expect(try Self.names(reader) == ["Nature", "Ada"])
        #expect(try Self.names(container.newBackgroundContext()) == ["Nature", "Science", "Ada", "Grace"])
        // Its token pins another context to the same generation of both stores.
        let other = container.newBackgroundContext()
        let token = try #require(reader.performAndWait { reader.queryGenerationToken })
        try other.performAndWait { try other.setQueryGenerationFrom(token) }
        #expect(try Self.names(other) == ["Nature", "Ada"])
        reader.performAndWait { reader.reset() }
        #expect(try Self.names(reader) == ["Nature", "Science", "Ada", "Grace"])
        // A token of these two stores does not pin a context of one of them.
        let single = try makeContainer(in: dir, name: "Single", model: TwoStoreModel.model)
        let stranger = single.newBackgroundContext()
        #expect(throws: ManagedStoreError.self) {
            try stranger.performAndWait { try stranger.setQueryGenerationFrom(token) }
        }
    }

    @Test func historyIsKeptPerStoreAndReadFromEither() throws {
        let dir = TemporaryDirectory()
        let container = try TwoStoreModel.container(in: dir, history: true)
        let coordinator = container.persistentStoreCoordinator
        let (catalogue, lending) = (coordinator.persistentStores[0], coordinator.persistentStores[1])
        let start = try coordinator.currentPersistentHistoryToken(fromStores: [lending])
        try Self.save("Nature", "Ada", in: container)
        let worker = container.newBackgroundContext()
        try worker.performAndWait {
            Patron(context: worker).name = "Grace"
            try worker.save()
        }
        #expect(throws: ManagedStoreError.self) { try coordinator.currentPersistentHistoryToken() }
        let lendingNow = try coordinator.currentPersistentHistoryToken(fromStores: [lending])
        #expect(lendingNow.storeIdentifier == lending.identifier)
        #expect(lendingNow.transactionNumber == start.transactionNumber + 2, "two saves wrote the lending store")
        #expect(
            try coordinator.currentPersistentHistoryToken(fromStores: [catalogue]).transactionNumber == 1,
            "one save wrote the catalogue")
        let context = container.newBackgroundContext()
        try context.performAndWait {
            // After a token: that token's store only.
            let afterStart = try context.execute(.fetchHistory(after: start)).transactions ?? []
            #expect(afterStart.map(\.token.storeIdentifier) == [lending.identifier, lending.identifier])
            #expect(afterStart.flatMap { $0.changes ?? [] }.map(\.changedObjectID.entity.name) == ["Patron", "Patron"])
            // Without a token, a request names its store: the two histories are numbered apart,
            // and a token taken from a mix of them would skip one store's transactions.
            do {
                _ = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?))
                Issue.record("a history fetch of two stores without naming one succeeded")
            } catch {
                #expect(
                    "\(error)"
                        == "each of the coordinator's 2 stores keeps its own history, numbered apart: name one with the request's affectedStores (a request after a token reads the token's store)"
                )
            }
            var onlyCatalogue = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
            onlyCatalogue.affectedStores = [catalogue]
            let changes = try context.execute(onlyCatalogue).transactions?.flatMap { $0.changes ?? [] } ?? []
            #expect(changes.map(\.changedObjectID.entity.name) == ["Periodical"])
            var count = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
            count.resultType = .count
            count.affectedStores = [lending]
            #expect(try context.execute(count).count == 2)
            // A purge through one store's token purges that store only.
            try context.execute(.deleteHistory(before: lendingNow))
            #expect(try context.execute(count).count == 0)
            #expect((try context.execute(onlyCatalogue).transactions ?? []).count == 1)
        }
    }
}
