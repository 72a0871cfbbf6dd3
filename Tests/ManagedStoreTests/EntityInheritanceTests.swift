import Foundation
import ManagedStore
import TestSupport
import Testing

class Vehicle: ManagedObject {
    @Attribute var name: String
    @Attribute var wheels: Int16
    @Relationship var owner: Driver?
    @Relationship var routes: Set<Route>
}

class Car: Vehicle {
    @Attribute var seats: Int16
}

final class Roadster: Car {
    @Attribute var topSpeed: Int32
}

final class Lorry: Vehicle {
    @Attribute var payload: Double
    @Relationship var depot: Depot?
}

final class Driver: ManagedObject {
    @Attribute var name: String
    @Relationship var vehicles: Set<Vehicle>
    @Relationship var favourite: Vehicle?
}

final class Route: ManagedObject {
    @Attribute var code: String
    @Relationship var vehicles: Set<Vehicle>
}

final class Depot: ManagedObject {
    @Attribute var city: String
    @Relationship var lorries: Set<Lorry>
}

/// Vehicle (abstract) with Car (and its Roadster) and Lorry: one table, `Vehicle`, with `Z_ENT`.
enum FleetModel {
    static let vehicle = EntityDescription(
        name: "Vehicle", managedObjectClass: Vehicle.self, isAbstract: true,
        attributes: [
            AttributeDescription(name: "name", type: .string),
            AttributeDescription(name: "wheels", type: .integer16, defaultValue: .integer(4)),
        ],
        relationships: [
            .toOne("owner", destination: "Driver", inverse: "vehicles"),
            .toMany("routes", destination: "Route", inverse: "vehicles"),
        ],
        uniquenessConstraints: [["name"]])
    static let car = EntityDescription(
        name: "Car", managedObjectClass: Car.self, superentity: vehicle,
        attributes: [AttributeDescription(name: "seats", type: .integer16)])
    static let roadster = EntityDescription(
        name: "Roadster", managedObjectClass: Roadster.self, superentity: car,
        attributes: [AttributeDescription(name: "topSpeed", type: .integer32)])
    static let lorry = EntityDescription(
        name: "Lorry", managedObjectClass: Lorry.self, superentity: vehicle,
        attributes: [AttributeDescription(name: "payload", type: .double)],
        relationships: [.toOne("depot", destination: "Depot", inverse: "lorries")])
    /// A new vehicle of `kind` (Car, Roadster or Lorry), its own mandatory attributes set.
    static func make(_ kind: String, in context: ManagedObjectContext) -> Vehicle {
        switch kind {
        case "Car":
            let car = Car(context: context)
            car.seats = 5
            return car
        case "Roadster":
            let roadster = Roadster(context: context)
            (roadster.seats, roadster.topSpeed) = (2, 200)
            return roadster
        default:
            let lorry = Lorry(context: context)
            lorry.payload = 3.5
            return lorry
        }
    }
    static let model = ManagedObjectModel(entities: [
        vehicle, car, roadster, lorry,
        EntityDescription(
            name: "Driver", managedObjectClass: Driver.self,
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [
                .toMany("vehicles", destination: "Vehicle", inverse: "owner", deleteRule: .cascade),
                .toOne("favourite", destination: "Vehicle", inverse: nil),
            ]),
        EntityDescription(
            name: "Route", managedObjectClass: Route.self,
            attributes: [AttributeDescription(name: "code", type: .string)],
            relationships: [.toMany("vehicles", destination: "Vehicle", inverse: "routes")]),
        EntityDescription(
            name: "Depot", managedObjectClass: Depot.self,
            attributes: [AttributeDescription(name: "city", type: .string)],
            relationships: [.toMany("lorries", destination: "Lorry", inverse: "depot")]),
    ])
}

/// Core Data's entity inheritance: `superentity`, `subentities`, `isAbstract` ("A Boolean value
/// that indicates whether the entity is abstract"), `includesSubentities` ("whether the fetch
/// request includes subentities in the results", true by default), `isKindOf(entity:)`. Seeded
/// operations on a fleet are checked against the test's own list of vehicles: every fetch of
/// each entity (with and without sub-entities, predicates on inherited and own attributes),
/// the objects' classes, a to-many and a to-one to the abstract entity, before and after saves,
/// from another context, and the table's rows as Python's `sqlite3` reads them.
@MainActor @Suite struct EntityInheritanceTests {
    /// `ECBRATES_SEED` rebuilds a run; else the suite's own seed.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? 2911

    /// What the test knows of a vehicle: its kind and its values.
    struct Known: Equatable {
        var kind: String
        var wheels: Int16
        var owner: String?
        var routes: Set<String> = []
    }

    /// The names of the known vehicles of `kinds` with at least `wheels` wheels, sorted.
    static func names(_ known: [String: Known], kinds: Set<String>, wheels: Int16) -> [String] {
        known.filter { kinds.contains($0.value.kind) && $0.value.wheels >= wheels }.keys.sorted {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
    }

    /// Every fetch, checked against `known`, in `context`.
    static func check(
        _ context: ManagedObjectContext, _ known: [String: Known], _ label: String, wheels: Int16
    ) throws {
        func fetched<T: ManagedObject>(_ type: T.Type, subentities: Bool = true) throws -> [String] {
            var request = FetchRequest<T>()
            request.includesSubentities = subentities
            let objects = try context.fetch(request)
            for object in objects {
                let kind = known[object.value(forKey: "name") as! String]?.kind
                #expect("\(Swift.type(of: object))" == kind, "\(label): the class of \(object.objectID)")
            }
            return objects.map { $0.value(forKey: "name") as! String }.sorted {
                $0.utf8.lexicographicallyPrecedes($1.utf8)
            }
        }
        let all: Set = ["Car", "Roadster", "Lorry"]
        #expect(try fetched(Vehicle.self) == names(known, kinds: all, wheels: 0), "\(label): Vehicle")
        #expect(try fetched(Car.self) == names(known, kinds: ["Car", "Roadster"], wheels: 0), "\(label): Car")
        #expect(
            try fetched(Car.self, subentities: false) == names(known, kinds: ["Car"], wheels: 0),
            "\(label): Car without sub-entities")
        #expect(try fetched(Roadster.self) == names(known, kinds: ["Roadster"], wheels: 0), "\(label): Roadster")
        #expect(try fetched(Lorry.self) == names(known, kinds: ["Lorry"], wheels: 0), "\(label): Lorry")
        // A predicate on an inherited attribute, sorted by it in the store.
        let heavy = try context.fetch(
            FetchRequest<Vehicle>(
                predicate: #Predicate { $0.wheels >= wheels }, sortBy: [SortDescriptor(\.name)]))
        #expect(heavy.map(\.name) == names(known, kinds: all, wheels: wheels), "\(label): wheels >= \(wheels)")
        #expect(
            try context.count(for: FetchRequest<Car>(predicate: #Predicate { $0.wheels >= wheels }))
                == names(known, kinds: ["Car", "Roadster"], wheels: wheels).count, "\(label): count of cars")
        // The drivers' vehicles: a to-many to the abstract entity, of every kind.
        for driver in try context.fetch(FetchRequest<Driver>()) {
            let expected = known.filter { $0.value.owner == driver.name }.keys.sorted()
            #expect(driver.vehicles.map(\.name).sorted() == expected, "\(label): \(driver.name)'s vehicles")
            for vehicle in driver.vehicles {
                #expect("\(type(of: vehicle))" == known[vehicle.name]?.kind, "\(label): \(vehicle.name)'s class")
            }
        }
    }

    @Test func everyFetchFindsItsEntityAndItsSubentities() throws {
        var generator = SeededGenerator(seed: Self.seed)
        for round in 0..<6 {
            let directory = TemporaryDirectory()
            let container = try makeContainer(in: directory, name: "Fleet", model: FleetModel.model)
            let context = container.viewContext
            var drivers: [Driver] = []
            for name in ["Ada", "Bo"] {
                let driver = Driver(context: context)
                driver.name = name
                drivers.append(driver)
            }
            let depot = Depot(context: context)
            depot.city = "Lyon"
            var known: [String: Known] = [:]
            var objects: [String: Vehicle] = [:]
            var serial = 0
            for step in 0..<50 {
                let label = "ECBRATES_SEED=\(Self.seed) round \(round) step \(step)"
                switch Int.random(in: 0..<6, using: &generator) {
                case 0, 1:
                    serial += 1
                    let kind = ["Car", "Roadster", "Lorry"].randomElement(using: &generator)!
                    let vehicle = FleetModel.make(kind, in: context)
                    if let roadster = vehicle as? Roadster {
                        roadster.topSpeed = Int32.random(in: 150...300, using: &generator)
                    }
                    if let lorry = vehicle as? Lorry {
                        lorry.payload = Double.random(in: 1...40, using: &generator)
                        lorry.depot = depot
                    }
                    vehicle.name = "v\(serial)"
                    vehicle.wheels = Int16.random(in: 2...18, using: &generator)
                    let owner = Bool.random(using: &generator) ? drivers.randomElement(using: &generator) : nil
                    vehicle.owner = owner
                    known[vehicle.name] = Known(kind: kind, wheels: vehicle.wheels, owner: owner?.name)
                    objects[vehicle.name] = vehicle
                case 2:
                    guard let name = known.keys.sorted().randomElement(using: &generator) else { continue }
                    let wheels = Int16.random(in: 2...18, using: &generator)
                    objects[name]!.wheels = wheels
                    known[name]!.wheels = wheels
                case 3:
                    guard let name = known.keys.sorted().randomElement(using: &generator) else { continue }
                    let driver = drivers.randomElement(using: &generator)!
                    driver.vehicles.insert(objects[name]!)
                    known[name]!.owner = driver.name
                case 4:
                    guard let name = known.keys.sorted().randomElement(using: &generator) else { continue }
                    context.delete(objects.removeValue(forKey: name)!)
                    known[name] = nil
                default:
                    try context.save()
                }
                if step % 10 == 9 { try Self.check(context, known, label, wheels: 9) }
            }
            if let favourite = known.first(where: { $0.value.kind == "Roadster" })?.key {
                drivers[0].favourite = objects[favourite]
            }
            try context.save()
            try Self.check(context, known, "ECBRATES_SEED=\(Self.seed) round \(round), saved", wheels: 9)
            // Another context reads the rows alone: each object is made of its row's entity,
            // also through a to-one to the abstract entity, which holds only a key.
            let other = container.newBackgroundContext()
            try other.performAndWait {
                try Self.check(other, known, "ECBRATES_SEED=\(Self.seed) round \(round), another context", wheels: 9)
                let ada = try other.fetch(FetchRequest<Driver>(predicate: #Predicate { $0.name == "Ada" })).first
                let favourite = try #require(ada).favourite
                #expect(known.contains { $0.value.kind == "Roadster" } == (favourite is Roadster))
            }
            // The table as sqlite3 reads it: one row per vehicle, its entity in Z_ENT.
            let rows = try PythonTools.run(
                "import sqlite3,sys,json; print(json.dumps(dict(sqlite3.connect(sys.stdin.read()).execute('SELECT name, Z_ENT FROM Vehicle'))))",
                input: Data(directory.file("Fleet.sqlite").path.utf8))
            #expect(
                try JSONDecoder().decode([String: String].self, from: rows) == known.mapValues(\.kind),
                "ECBRATES_SEED=\(Self.seed) round \(round), sqlite3")
        }
    }

    /// The hierarchy as Core Data describes it, and what it refuses: an abstract entity's
    /// objects (a batch insert throws; `insert` traps, as Core Data raises), a row that breaks
    /// the superentity's uniqueness constraint, whatever its entity.
    @Test func aHierarchyIsDescribedAndKeepsItsRules() throws {
        // An entity learns its sub-entities from the model that holds them (made here first).
        _ = FleetModel.model
        #expect(FleetModel.vehicle.subentities.map(\.name) == ["Car", "Lorry"])
        #expect(FleetModel.roadster.superentity === FleetModel.car && FleetModel.car.superentity === FleetModel.vehicle)
        #expect(FleetModel.roadster.isKindOf(entity: FleetModel.vehicle))
        #expect(
            !FleetModel.lorry.isKindOf(entity: FleetModel.car) && !FleetModel.vehicle.isKindOf(entity: FleetModel.car))
        #expect(FleetModel.roadster.attributes.map(\.name) == ["name", "wheels", "seats", "topSpeed"])
        #expect(FleetModel.vehicle.isAbstract && !FleetModel.car.isAbstract)
        let container = try makeContainer(in: nil, name: "Fleet", model: FleetModel.model)
        let context = container.viewContext
        #expect {
            try context.execute(BatchInsertRequest<Vehicle>(objects: [["name": .string("x")]]))
        } throws: { error in
            "\(error)".contains("the entity is abstract: insert rows of one of its sub-entities")
        }
        // Two cars of one name: Core Data's constraint conflict; a car and a lorry: the table's
        // constraint, which no merge policy can merge (they are objects of two entities).
        let makers: [(ManagedObjectContext) -> Vehicle] = [
            { context in
                let car = Car(context: context)
                car.seats = 4
                return car
            },
            { context in
                let lorry = Lorry(context: context)
                lorry.payload = 1
                return lorry
            },
        ]
        for makeSecond in makers {
            let one = Car(context: context)
            one.name = "Twin"
            one.seats = 4
            try context.save()
            let two = makeSecond(context)
            two.name = "Twin"
            #expect(throws: (any Error).self) { try context.save() }
            context.rollback()
            #expect(try context.count(for: FetchRequest<Vehicle>()) == 1)
            context.delete(one)
            try context.save()
        }
    }

    /// Mistakes in a hierarchy are the model's errors, each naming the entity.
    @Test func aHierarchyTheStoreCannotHoldIsAnErrorOfTheModel() {
        func vehicle() -> EntityDescription {
            EntityDescription(
                name: "Vehicle", managedObjectClass: Vehicle.self, isAbstract: true,
                attributes: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "wheels", type: .integer16),
                ])
        }
        let missing = vehicle()
        let orphan = EntityDescription(
            name: "Car", managedObjectClass: Car.self, superentity: missing,
            attributes: [AttributeDescription(name: "seats", type: .integer16)])
        let parent = vehicle()
        let strange = EntityDescription(
            name: "Depot", managedObjectClass: Depot.self, superentity: parent,
            attributes: [AttributeDescription(name: "city", type: .string)])
        let seats = EntityDescription(
            name: "Car", managedObjectClass: Car.self, superentity: parent,
            attributes: [AttributeDescription(name: "seats", type: .integer16)])
        let lorry = EntityDescription(
            name: "Lorry", managedObjectClass: Lorry.self, superentity: parent,
            attributes: [
                AttributeDescription(name: "payload", type: .double),
                AttributeDescription(name: "seats", type: .integer16),
                AttributeDescription(name: "label", type: .string, derivationExpression: "uppercase:(name)"),
            ])
        let orphanSaid = ModelMistakeTests.problems(ManagedObjectModel(entities: [orphan])) ?? ""
        #expect(
            orphanSaid.contains("entity Car has the superentity Vehicle, which the model does not have"),
            "\(orphanSaid)")
        let said = ModelMistakeTests.problems(ManagedObjectModel(entities: [parent, strange, seats, lorry])) ?? ""
        for problem in [
            "entity Depot's class Depot is not a subclass of Vehicle, the class of its superentity Vehicle",
            "Lorry.seats and Car.seats would be one column of table Vehicle, which holds both entities' rows; give one another name",
            "Lorry.label is derived, and ManagedStore does not derive attributes of an entity with a superentity or sub-entities",
        ] {
            #expect(said.contains(problem), "\(said)")
        }
    }

    /// A worker's save of sub-entity objects reaches a fetched results controller of the
    /// abstract entity through the view context's merge; the objects are of their classes.
    @Test func aWorkersSubentityObjectsReachAControllerOfTheirSuperentity() async throws {
        let container = try makeContainer(in: nil, name: "Fleet", model: FleetModel.model)
        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true
        var request = FetchRequest<Vehicle>(sortBy: [SortDescriptor(\.name)])
        request.fetchBatchSize = 2
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: view)
        try controller.performFetch()
        var iterator = controller.changes.makeAsyncIterator()
        let worker = container.newBackgroundContext()
        try await worker.perform {
            let roadster = Roadster(context: worker)
            (roadster.name, roadster.seats, roadster.topSpeed) = ("b", 2, 250)
            let lorry = Lorry(context: worker)
            (lorry.name, lorry.payload) = ("a", 12.5)
            try worker.save()
        }
        _ = await iterator.next()
        let objects = controller.fetchedObjects ?? []
        #expect(objects.map(\.name) == ["a", "b"])
        #expect(objects.map { "\(type(of: $0))" } == ["Lorry", "Roadster"])
        #expect((objects.last as? Roadster)?.topSpeed == 250 && (objects.first as? Lorry)?.payload == 12.5)
    }
}
