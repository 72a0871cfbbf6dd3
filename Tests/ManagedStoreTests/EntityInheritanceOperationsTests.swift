import Foundation
import ManagedStore
import TestSupport
import Testing

/// Entity inheritance through the rest of the API: aggregates, attribute fetches, batch
/// updates and deletes, prefetching, a many-to-many relationship to the abstract entity, and a
/// child context, each keeping to its entity's rows of the hierarchy's one table. Checked over
/// seeded fleets against the test's own list, read back by a new context.
@MainActor @Suite struct EntityInheritanceOperationsTests {
    /// `ECBRATES_SEED` rebuilds a run; else the suite's own seed, the other suite's plus one.
    static let seed = EntityInheritanceTests.seed + 1

    typealias Known = EntityInheritanceTests.Known

    /// The vehicles a new context reads, as the test knows them.
    static func reread(_ container: PersistentContainer) throws -> [String: Known] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            var request = FetchRequest<Vehicle>()
            request.relationshipKeyPathsForPrefetching = ["routes", "owner"]
            var result: [String: Known] = [:]
            for vehicle in try context.fetch(request) {
                result[vehicle.name] = Known(
                    kind: "\(type(of: vehicle))", wheels: vehicle.wheels, owner: vehicle.owner?.name,
                    routes: Set(vehicle.routes.map(\.code)))
            }
            return result
        }
    }

    @Test func everyOperationKeepsToItsEntitysRows() throws {
        var generator = SeededGenerator(seed: Self.seed)
        for round in 0..<5 {
            let label = "ECBRATES_SEED=\(Self.seed) round \(round)"
            let directory = TemporaryDirectory()
            let container = try makeContainer(in: directory, name: "Fleet", model: FleetModel.model)
            let context = container.viewContext
            let drivers = ["Ada", "Bo"].map { name in
                let driver = Driver(context: context)
                driver.name = name
                return driver
            }
            let routes = ["R1", "R2", "R3"].map { code in
                let route = Route(context: context)
                route.code = code
                return route
            }
            var known: [String: Known] = [:]
            for index in 0..<24 {
                let kind = ["Car", "Roadster", "Lorry"].randomElement(using: &generator)!
                let vehicle = FleetModel.make(kind, in: context)
                vehicle.name = "v\(index)"
                vehicle.wheels = Int16.random(in: 2...18, using: &generator)
                vehicle.owner = drivers.randomElement(using: &generator)
                let chosen = routes.filter { _ in Bool.random(using: &generator) }
                vehicle.routes = Set(chosen)
                known[vehicle.name] = Known(
                    kind: kind, wheels: vehicle.wheels, owner: vehicle.owner?.name, routes: Set(chosen.map(\.code)))
            }
            try context.save()
            #expect(try Self.reread(container) == known, "\(label): saved")

            // Aggregates and attribute fetches of each entity read its rows and its sub-entities'.
            func expectSums<T: Vehicle>(_ type: T.Type, _ kinds: Set<String>) throws {
                let rows = known.values.filter { kinds.contains($0.kind) }
                let (count, total) = try context.aggregate(FetchRequest<T>(), .count, .sum(\T.wheels))
                #expect(
                    count == rows.count && total == Double(rows.map { Int($0.wheels) }.reduce(0, +)),
                    "\(label) \(T.self)")
                let names = try context.fetchValues(FetchRequest<T>(), \T.name).map { $0 }
                #expect(
                    Set(names) == Set(known.filter { kinds.contains($0.value.kind) }.keys), "\(label) \(T.self) names")
            }
            try expectSums(Vehicle.self, ["Car", "Roadster", "Lorry"])
            try expectSums(Car.self, ["Car", "Roadster"])
            try expectSums(Lorry.self, ["Lorry"])

            // A batch update of cars changes cars and roadsters only; a batch delete of lorries
            // deletes lorries only.
            _ = try context.execute(
                BatchUpdateRequest<Car>(
                    predicate: #Predicate { $0.wheels < 6 }, propertiesToUpdate: ["wheels": .integer(6)]))
            for (name, vehicle) in known where vehicle.kind != "Lorry" && vehicle.wheels < 6 { known[name]!.wheels = 6 }
            _ = try context.execute(BatchDeleteRequest(FetchRequest<Lorry>(predicate: #Predicate { $0.wheels > 10 })))
            known = known.filter { !($0.value.kind == "Lorry" && $0.value.wheels > 10) }
            #expect(try Self.reread(container) == known, "\(label): after the batch requests")

            // A child context edits objects of two sub-entities; its save reaches the store
            // through the view context's.
            context.reset()
            let child = ManagedObjectContext(concurrencyType: .mainQueue)
            child.parent = context
            for vehicle in try child.fetch(FetchRequest<Vehicle>()) where Bool.random(using: &generator) {
                vehicle.wheels += 1
                known[vehicle.name]!.wheels += 1
                if let roadster = vehicle as? Roadster { roadster.topSpeed = 333 }
                if Bool.random(using: &generator), let route = vehicle.routes.first {
                    vehicle.routes.remove(route)
                    known[vehicle.name]!.routes.remove(route.code)
                }
            }
            try child.save()
            try context.save()
            #expect(try Self.reread(container) == known, "\(label): after a child's save")
            // The many-to-many from the other side: each route's vehicles, of their classes.
            let other = container.newBackgroundContext()
            try other.performAndWait {
                for route in try other.fetch(FetchRequest<Route>()) {
                    let expected = Set(known.filter { $0.value.routes.contains(route.code) }.keys)
                    #expect(Set(route.vehicles.map(\.name)) == expected, "\(label): route \(route.code)")
                    for vehicle in route.vehicles {
                        #expect("\(type(of: vehicle))" == known[vehicle.name]?.kind, "\(label): \(vehicle.name)")
                    }
                }
                let roadsters = try other.fetch(FetchRequest<Roadster>(predicate: #Predicate { $0.topSpeed == 333 }))
                #expect(roadsters.allSatisfy { known[$0.name]?.kind == "Roadster" }, "\(label): roadsters")
            }
        }
    }

    /// A child context reaching, through a to-one to the abstract entity, an object its
    /// parent holds unsaved (with a permanent ID) gets it of its own class.
    @Test func aChildFollowsAToOneToItsParentsUnsavedObject() throws {
        let container = try makeContainer(in: nil, name: "Fleet", model: FleetModel.model)
        let view = container.viewContext
        let driver = Driver(context: view)
        driver.name = "Ada"
        try view.save()
        let car = FleetModel.make("Roadster", in: view)
        car.name = "Spider"
        try view.obtainPermanentIDs(for: [car])
        driver.favourite = car
        let child = ManagedObjectContext(concurrencyType: .mainQueue)
        child.parent = view
        let copy = try #require(child.existingObject(with: driver.objectID) as? Driver)
        #expect(copy.favourite is Roadster)
        #expect(copy.favourite?.name == "Spider")
    }

    /// A batch delete through the superentity applies the delete rules of the relationships its
    /// sub-entities declare: here a label's key to a deleted box is nullified.
    @Test func aBatchDeleteAppliesTheSubentitiesRules() throws {
        let crate = EntityDescription(
            name: "Crate", managedObjectClass: Crate.self, isAbstract: true,
            attributes: [AttributeDescription(name: "code", type: .string)])
        let model = ManagedObjectModel(entities: [
            crate,
            EntityDescription(
                name: "Box", managedObjectClass: Box.self, superentity: crate, attributes: [],
                relationships: [.toMany("labels", destination: "Label", inverse: "box")]),
            EntityDescription(
                name: "Label", managedObjectClass: Label.self,
                attributes: [AttributeDescription(name: "text", type: .string)],
                relationships: [.toOne("box", destination: "Box", inverse: "labels")]),
        ])
        let container = try makeContainer(in: nil, name: "Crates", model: model)
        let context = container.viewContext
        let box = Box(context: context)
        box.code = "B1"
        let label = Label(context: context)
        (label.text, label.box) = ("fragile", box)
        try context.save()
        _ = try context.execute(BatchDeleteRequest(FetchRequest<Crate>()))
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let labels = try reader.fetch(FetchRequest<Label>())
            #expect(labels.map(\.text) == ["fragile"] && labels.first?.box == nil)
            #expect(try reader.count(for: FetchRequest<Label>(predicate: #Predicate { $0.box == nil })) == 1)
        }
    }
}

class Crate: ManagedObject {
    @Attribute var code: String
}

final class Box: Crate {
    @Relationship var labels: Set<Label>
}

final class Label: ManagedObject {
    @Attribute var text: String
    @Relationship var box: Box?
}
