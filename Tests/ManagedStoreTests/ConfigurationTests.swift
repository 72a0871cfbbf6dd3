import Foundation
import ManagedStore
import TestSupport
import Testing

/// Several stores per coordinator, as Core Data presents them: a model's configurations
/// ("named collections of entities"), a store description's `configuration`, each object saved
/// to the store of its entity's configuration, fetches that read the right store, one save that
/// writes both. Seeded edits are checked against the test's own lists, through another context
/// and through Python's `sqlite3` reading each file.
@Suite struct ConfigurationTests {
    /// `ECBRATES_SEED` rebuilds a run; else the suite's own seed.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? 2811

    /// What the test knows: each periodical's fascicle codes, each patron's borrowing codes.
    struct Known: Equatable {
        var periodicals: [String: Set<String>] = [:]
        var patrons: [String: Set<String>] = [:]
    }

    /// The two stores as a context reads them.
    static func read(_ context: ManagedObjectContext) throws -> Known {
        try context.performAndWait {
            var known = Known()
            for periodical in try context.fetch(FetchRequest<Periodical>()) {
                known.periodicals[periodical.name] = Set(periodical.fascicles.map(\.code))
            }
            for patron in try context.fetch(FetchRequest<Patron>()) {
                known.patrons[patron.name] = Set(patron.borrowings.map(\.editionCode))
            }
            return known
        }
    }

    @Test func eachObjectIsSavedToItsConfigurationsStoreAndReadBackFromIt() throws {
        let dir = TemporaryDirectory()
        let container = try TwoStoreModel.container(in: dir)
        let worker = container.newBackgroundContext()
        var generator = SeededGenerator(seed: Self.seed)
        var known = Known()
        var serial = 0
        for round in 0..<12 {
            let steps = Int.random(in: 1...8, using: &generator)
            var what: [String] = []
            try worker.performAndWait {
                for _ in 0..<steps {
                    serial += 1
                    switch Int.random(in: 0..<7, using: &generator) {
                    case 0:
                        let periodical = Periodical(context: worker)
                        periodical.name = "p\(serial)"
                        var codes = Set<String>()
                        for index in 0..<Int.random(in: 0...3, using: &generator) {
                            let fascicle = Fascicle(context: worker)
                            fascicle.code = "e\(serial).\(index)"
                            fascicle.periodical = periodical
                            codes.insert(fascicle.code)
                        }
                        known.periodicals[periodical.name] = codes
                        what.append("insert \(periodical.name)")
                    case 1:
                        let patron = Patron(context: worker)
                        patron.name = "r\(serial)"
                        var codes = Set<String>()
                        for index in 0..<Int.random(in: 0...3, using: &generator) {
                            let borrowing = Borrowing(context: worker)
                            borrowing.editionCode = "b\(serial).\(index)"
                            borrowing.patron = patron
                            codes.insert(borrowing.editionCode)
                        }
                        known.patrons[patron.name] = codes
                        what.append("insert \(patron.name)")
                    case 2:
                        let periodicals = try worker.fetch(FetchRequest<Periodical>()).sorted { $0.name < $1.name }
                        guard let periodical = periodicals.randomElement(using: &generator) else { continue }
                        let fascicle = Fascicle(context: worker)
                        fascicle.code = "e\(serial)"
                        fascicle.periodical = periodical
                        known.periodicals[periodical.name, default: []].insert(fascicle.code)
                        what.append("fascicle of \(periodical.name)")
                    case 3:
                        let patrons = try worker.fetch(FetchRequest<Patron>()).sorted { $0.name < $1.name }
                        guard let from = patrons.randomElement(using: &generator),
                            let to = patrons.randomElement(using: &generator),
                            let borrowing = from.borrowings.sorted(by: { $0.editionCode < $1.editionCode }).first
                        else { continue }
                        borrowing.patron = to
                        known.patrons[from.name]!.remove(borrowing.editionCode)
                        known.patrons[to.name]!.insert(borrowing.editionCode)
                        what.append("move \(borrowing.editionCode) \(from.name)→\(to.name)")
                    case 4:
                        let periodicals = try worker.fetch(FetchRequest<Periodical>()).sorted { $0.name < $1.name }
                        guard let periodical = periodicals.randomElement(using: &generator) else { continue }
                        known.periodicals[periodical.name] = nil
                        what.append("delete \(periodical.name)")
                        worker.delete(periodical)
                    case 5:
                        let patrons = try worker.fetch(FetchRequest<Patron>()).sorted { $0.name < $1.name }
                        guard let patron = patrons.randomElement(using: &generator) else { continue }
                        known.patrons[patron.name] = nil
                        what.append("delete \(patron.name)")
                        worker.delete(patron)
                    default:
                        let periodicals = try worker.fetch(FetchRequest<Periodical>()).sorted { $0.name < $1.name }
                        guard let periodical = periodicals.randomElement(using: &generator) else { continue }
                        let codes = known.periodicals.removeValue(forKey: periodical.name)
                        periodical.name = "p\(serial)"
                        known.periodicals[periodical.name] = codes
                        what.append("rename to \(periodical.name)")
                    }
                }
                try worker.save()
            }
            let label = "ECBRATES_SEED=\(Self.seed) round \(round): \(what.joined(separator: ", "))"
            #expect(try Self.read(container.newBackgroundContext()) == known, "\(label)")
            let files = try TwoStoreModel.read(dir)
            #expect(
                files
                    == TwoStoreModel.Files(
                        catalogueTables: ["Fascicle", "Periodical"], lendingTables: ["Borrowing", "Patron"],
                        periodicals: known.periodicals, patrons: known.patrons), "\(label)")
        }
        // Each object's ID names its store, whose configuration holds its entity.
        let stores = container.persistentStoreCoordinator.persistentStores
        #expect(stores.map(\.configurationName) == ["Catalogue", "Lending"])
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            for periodical in try reader.fetch(FetchRequest<Periodical>()) {
                #expect(periodical.objectID.persistentStore === stores[0])
                for fascicle in periodical.fascicles { #expect(fascicle.objectID.persistentStore === stores[0]) }
            }
            for patron in try reader.fetch(FetchRequest<Patron>()) {
                #expect(patron.objectID.persistentStore === stores[1])
                // A URI names the store: it resolves to the object again.
                let uri = patron.objectID.uriRepresentation()
                #expect(uri.host == stores[1].identifier)
                #expect(
                    container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri) == patron.objectID)
            }
        }
    }

    /// A save that changes both stores writes both or neither: a uniqueness conflict in either
    /// store's part rolls the other back, and the context keeps its changes to save again.
    @Test(arguments: ["Catalogue", "Lending"])
    func aSaveAcrossStoresIsAllOrNone(conflictIn configuration: String) throws {
        let dir = TemporaryDirectory()
        let container = try TwoStoreModel.container(in: dir)
        let worker = container.newBackgroundContext()
        try worker.performAndWait {
            Periodical(context: worker).name = "Nature"
            Patron(context: worker).name = "Ada"
            try worker.save()
        }
        let before = try TwoStoreModel.read(dir)
        let error = try worker.performAndWait { () throws -> (any Error)? in
            let periodical = Periodical(context: worker)
            periodical.name = configuration == "Catalogue" ? "Nature" : "Science"
            let patron = Patron(context: worker)
            patron.name = configuration == "Lending" ? "Ada" : "Grace"
            do {
                try worker.save()
                return nil
            } catch {
                #expect(worker.hasChanges, "the context keeps what it could not save")
                periodical.name = "Science"
                patron.name = "Grace"
                return error
            }
        }
        guard case .saveConflicts(let constraint, _) = error as? ManagedStoreError else {
            Issue.record("expected a uniqueness conflict, got \(String(describing: error))")
            return
        }
        #expect(constraint.map(\.entityName) == [configuration == "Catalogue" ? "Periodical" : "Patron"])
        #expect(try TwoStoreModel.read(dir) == before, "neither store changed")
        try worker.performAndWait { try worker.save() }
        let after = try TwoStoreModel.read(dir)
        #expect(after.periodicals.keys.sorted() == ["Nature", "Science"])
        #expect(after.patrons.keys.sorted() == ["Ada", "Grace"])
    }

    /// A context that merges saves automatically gets the objects of both stores from one save.
    @Test func aMergingContextGetsBothStoresChangesFromOneSave() throws {
        let dir = TemporaryDirectory()
        let container = try TwoStoreModel.container(in: dir)
        let view = container.newBackgroundContext()
        view.automaticallyMergesChangesFromParent = true
        view.performAndWait { view.retainsRegisteredObjects = true }
        let (periodical, patron) = try view.performAndWait {
            let periodical = Periodical(context: view)
            periodical.name = "Nature"
            let patron = Patron(context: view)
            patron.name = "Ada"
            try view.save()
            return (periodical.objectID, patron.objectID)
        }
        let worker = container.newBackgroundContext()
        try worker.performAndWait {
            let fascicle = Fascicle(context: worker)
            fascicle.code = "N1"
            fascicle.periodical = try worker.existingObject(with: periodical) as? Periodical
            let borrowing = Borrowing(context: worker)
            borrowing.editionCode = "N1"
            borrowing.patron = try worker.existingObject(with: patron) as? Patron
            try worker.save()
        }
        view.performAndWait {}  // the merge was queued before this
        view.performAndWait {
            let registered = view.registeredObjects
            let nature = registered.compactMap { $0 as? Periodical }.first
            let ada = registered.compactMap { $0 as? Patron }.first
            #expect(nature?.fascicles.map(\.code) == ["N1"])
            #expect(ada?.borrowings.map(\.editionCode) == ["N1"])
        }
    }

    /// Core Data's `configurations`, `entities(forConfigurationName:)`, a store's
    /// `configurationName`, `persistentStore(for:)`, `assign(_:to:)`.
    @Test func theModelAndCoordinatorSayWhichStoreHoldsWhat() throws {
        let model = TwoStoreModel.model
        #expect(model.configurations == ["Catalogue", "Lending"])
        #expect(model.entities(forConfigurationName: "Lending")?.map(\.name) == ["Patron", "Borrowing"])
        #expect(model.entities(forConfigurationName: nil)?.count == 4)
        #expect(model.entities(forConfigurationName: "Nope") == nil)
        let dir = TemporaryDirectory()
        let container = try TwoStoreModel.container(in: dir)
        let coordinator = container.persistentStoreCoordinator
        let lending = try #require(coordinator.persistentStore(for: dir.file("lending.sqlite")))
        let catalogue = try #require(coordinator.persistentStore(for: dir.file("catalogue.sqlite")))
        #expect(lending.configurationName == "Lending" && catalogue.configurationName == "Catalogue")
        #expect(coordinator.persistentStore(for: dir.file("other.sqlite")) == nil)
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(at: lending.url)
        #expect(model.isConfiguration(withName: "Lending", compatibleWithStoreMetadata: metadata))
        #expect(!model.isConfiguration(withName: "Catalogue", compatibleWithStoreMetadata: metadata))
        #expect(!model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let patron = Patron(context: context)
            patron.name = "Ada"
            try context.assign(patron, to: lending)
            do {
                try context.assign(patron, to: catalogue)
                Issue.record("assigning a Patron to the catalogue's store was allowed")
            } catch {
                #expect(
                    "\(error)"
                        == "Patron objects are saved to \(lending); \(catalogue) does not hold the entity (each entity lives in one store of a coordinator)"
                )
            }
        }
    }

    /// Every way a configuration or a second store can be wrong, refused with what is wrong,
    /// before any file is made.
    @Test func aStoreThatWouldBreakTheRulesIsRefusedNamingWhy() throws {
        let dir = TemporaryDirectory()
        let descriptions = TwoStoreModel.descriptions(in: dir)
        func add(_ list: [PersistentStoreDescription], model: ManagedObjectModel = TwoStoreModel.model) -> String? {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            do {
                for description in list { try coordinator.addPersistentStore(with: description) }
                return nil
            } catch {
                return "\(error)"
            }
        }
        var twice = descriptions[1]
        twice.url = dir.file("again.sqlite")
        #expect(
            add([descriptions[0], descriptions[1], twice])
                == "the store at \(dir.file("again.sqlite").path) would hold Patron, Borrowing, which the coordinator's store at \(dir.file("lending.sqlite").path) holds: each entity lives in one store of a coordinator (give the stores configurations that share no entity); nothing was added"
        )
        #expect(!FileManager.default.fileExists(atPath: dir.file("again.sqlite").path))
        var whole = PersistentStoreDescription(url: dir.file("whole.sqlite"))
        whole.configuration = nil
        let overlap = add([descriptions[0], whole])
        #expect(
            overlap?.hasPrefix("the store at \(dir.file("whole.sqlite").path) would hold Periodical, Fascicle, which")
                == true,
            "\(overlap ?? "nil")")
        #expect(
            add([descriptions[0], descriptions[0]])
                == "the coordinator already has the store at \(dir.file("catalogue.sqlite").path)")
        var unknown = descriptions[0]
        unknown.configuration = "Nope"
        #expect(
            add([unknown])
                == "the model cannot be used: the model has no configuration named Nope (it has: Catalogue, Lending)")

        // A configuration whose relationship leaves it.
        let entities = TwoStoreModel.entities()
        let split = ManagedObjectModel(
            entities: entities, configurations: ["Half": [entities[0]], "Rest": Array(entities[1...])])
        var half = descriptions[0]
        half.configuration = "Half"
        #expect(
            add([half], model: split)
                == "the model cannot be used: configuration Half holds Periodical, whose relationship fascicles goes to Fascicle, which it does not hold: a relationship cannot join objects of two stores"
        )
        // A configuration of an entity that is not the model's, and half a hierarchy.
        let foreign = TwoStoreModel.entities()[0]
        let vehicle = EntityDescription(
            name: "Vehicle", managedObjectClass: Vehicle.self, isAbstract: true,
            attributes: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "wheels", type: .integer16),
            ])
        let car = EntityDescription(
            name: "Car", managedObjectClass: Car.self, superentity: vehicle,
            attributes: [AttributeDescription(name: "seats", type: .integer16)])
        let mistaken = ManagedObjectModel(
            entities: [vehicle, car], configurations: ["Cars": [car], "Other": [foreign]])
        #expect(
            ModelMistakeTests.problems(mistaken)
                == "the model cannot be used: configuration Cars holds Car but not Vehicle of the same hierarchy, whose entities share one table; configuration Other names entity Periodical, which is not one of the model's"
        )
    }

    /// A fetch of an entity whose store is not added says so; removing one store leaves the
    /// other working and its own file whole, without a write-ahead log.
    @Test func oneStoreCanBeMissingOrRemovedAndTheOtherWorks() throws {
        let dir = TemporaryDirectory()
        let descriptions = TwoStoreModel.descriptions(in: dir)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: TwoStoreModel.model)
        let catalogue = try coordinator.addPersistentStore(with: descriptions[0])
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            do {
                _ = try context.fetch(FetchRequest<Patron>())
                Issue.record("a fetch of Patron without the Lending store succeeded")
            } catch {
                #expect(
                    "\(error)"
                        == "no store of the coordinator holds entity Patron (add the store of a configuration that holds it)"
                )
            }
            Patron(context: context).name = "Ada"
            #expect(throws: ManagedStoreError.self) { try context.save() }
            context.rollback()
            Periodical(context: context).name = "Nature"
            try context.save()
        }
        try coordinator.addPersistentStore(with: descriptions[1])
        try context.performAndWait {
            Patron(context: context).name = "Ada"
            try context.save()
        }
        try coordinator.remove(catalogue)
        let wal = dir.file("catalogue.sqlite").path + "-wal"
        #expect(((try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0) == 0)
        let names = try context.performAndWait { () throws -> [String] in
            context.reset()
            return try context.fetch(FetchRequest<Patron>()).map(\.name)
        }
        #expect(names == ["Ada"])
        #expect(throws: ManagedStoreError.self) {
            try context.performAndWait { try context.fetch(FetchRequest<Periodical>()) }
        }
        #expect(try TwoStoreModel.read(dir).periodicals == ["Nature": []], "the removed store's file holds its rows")
    }
}
