import Foundation
import ManagedStore
import TestSupport
import Testing

final class Van: Vehicle {}

/// Lightweight migrations of a hierarchy's one table: additions are inferred (an attribute of
/// the root, an attribute of a sub-entity, a new sub-entity, a stored entity that becomes the
/// root of a hierarchy), in place, keeping every row and its entity; anything that would move
/// columns between the entities of the table is refused, naming the entity, and leaves the
/// store as it was.
@MainActor @Suite struct EntityInheritanceMigrationTests {
    static func vehicle(abstract: Bool, extra: [AttributeDescription] = []) -> EntityDescription {
        EntityDescription(
            name: "Vehicle", managedObjectClass: Vehicle.self, isAbstract: abstract,
            attributes: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "wheels", type: .integer16, defaultValue: .integer(4)),
            ] + extra)
    }

    /// Each stored row's name and entity, as Python's `sqlite3` reads the table.
    static func rows(_ url: URL) throws -> [String: String] {
        let output = try PythonTools.run(
            "import sqlite3,sys,json; print(json.dumps(dict(sqlite3.connect(sys.stdin.read()).execute('SELECT name, Z_ENT FROM Vehicle'))))",
            input: Data(url.path.utf8))
        return try JSONDecoder().decode([String: String].self, from: output)
    }

    @Test func additionsToAHierarchyMigrateInPlace() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Fleet.sqlite")
        do {
            let vehicle = Self.vehicle(abstract: true)
            let model = ManagedObjectModel(entities: [
                vehicle,
                EntityDescription(
                    name: "Car", managedObjectClass: Car.self, superentity: vehicle,
                    attributes: [AttributeDescription(name: "seats", type: .integer16)]),
            ])
            let container = try makeContainer(in: directory, name: "Fleet", model: model)
            let car = Car(context: container.viewContext)
            (car.name, car.seats) = ("Old car", 4)
            try container.viewContext.save()
            try container.persistentStoreCoordinator.remove(container.persistentStoreCoordinator.persistentStores[0])
        }
        // Version 2: the root and the sub-entity gain attributes, and a sub-entity is new.
        let vehicle = Self.vehicle(
            abstract: true, extra: [AttributeDescription(name: "colour", type: .string, isOptional: true)])
        let car = EntityDescription(
            name: "Car", managedObjectClass: Car.self, superentity: vehicle,
            attributes: [
                AttributeDescription(name: "seats", type: .integer16),
                AttributeDescription(name: "doors", type: .integer16, defaultValue: .integer(5)),
            ])
        let van = EntityDescription(
            name: "Van", managedObjectClass: Van.self, superentity: vehicle,
            attributes: [AttributeDescription(name: "volume", type: .double, defaultValue: .double(8))])
        let container = try makeContainer(
            in: directory, name: "Fleet", model: ManagedObjectModel(entities: [vehicle, car, van]))
        let context = container.viewContext
        let stored = try #require(try context.fetch(FetchRequest<Car>()).first)
        #expect(stored.name == "Old car" && stored.seats == 4)
        #expect(stored.value(forKey: "doors") as? Int16 == 5 && stored.value(forKey: "colour") == nil)
        let added = Van(context: context)
        added.name = "New van"
        try context.save()
        #expect(
            try context.fetch(FetchRequest<Vehicle>(sortBy: [SortDescriptor(\.name)])).map { "\(type(of: $0))" } == [
                "Van", "Car",
            ])
        #expect(try Self.rows(url) == ["Old car": "Car", "New van": "Van"])
    }

    /// A stored entity given sub-entities becomes the root of a hierarchy: its rows stay its own.
    @Test func aStoredEntityBecomesTheRootOfAHierarchy() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Fleet.sqlite")
        do {
            let container = try makeContainer(
                in: directory, name: "Fleet", model: ManagedObjectModel(entities: [Self.vehicle(abstract: false)]))
            for name in ["Bike", "Trike"] {
                let vehicle = Vehicle(context: container.viewContext)
                vehicle.name = name
            }
            try container.viewContext.save()
            try container.persistentStoreCoordinator.remove(container.persistentStoreCoordinator.persistentStores[0])
        }
        let vehicle = Self.vehicle(abstract: false)
        let van = EntityDescription(
            name: "Van", managedObjectClass: Van.self, superentity: vehicle,
            attributes: [AttributeDescription(name: "volume", type: .double, defaultValue: .double(8))])
        let container = try makeContainer(
            in: directory, name: "Fleet", model: ManagedObjectModel(entities: [vehicle, van]))
        let context = container.viewContext
        let added = Van(context: context)
        added.name = "Van"
        try context.save()
        #expect(try Self.rows(url) == ["Bike": "Vehicle", "Trike": "Vehicle", "Van": "Van"])
        var plain = FetchRequest<Vehicle>(sortBy: [SortDescriptor(\.name)])
        plain.includesSubentities = false
        #expect(try context.fetch(plain).map(\.name) == ["Bike", "Trike"])
        #expect(try context.count(for: FetchRequest<Vehicle>()) == 3)
    }

    /// A removal (or a change) in a hierarchy's table is refused, and the store is left as it was.
    @Test func aRemovalFromAHierarchyIsRefusedNotGuessed() throws {
        let directory = TemporaryDirectory()
        func model(colour: Bool) -> ManagedObjectModel {
            let vehicle = Self.vehicle(abstract: true)
            return ManagedObjectModel(entities: [
                vehicle,
                EntityDescription(
                    name: "Car", managedObjectClass: Car.self, superentity: vehicle,
                    attributes: [AttributeDescription(name: "seats", type: .integer16)]
                        + (colour ? [AttributeDescription(name: "colour", type: .string, isOptional: true)] : [])),
            ])
        }
        let original = model(colour: true)
        do {
            let container = try makeContainer(in: directory, name: "Fleet", model: original)
            let car = Car(context: container.viewContext)
            (car.name, car.seats) = ("Kept", 4)
            try container.viewContext.save()
            try container.persistentStoreCoordinator.remove(container.persistentStoreCoordinator.persistentStores[0])
        }
        #expect {
            _ = try makeContainer(in: directory, name: "Fleet", model: model(colour: false))
        } throws: { error in
            "\(error)".contains("Car.colour")
                && "\(error)".contains("its removal from a hierarchy's table is not inferred")
        }
        let reopened = try makeContainer(in: directory, name: "Fleet", model: original)
        #expect(try reopened.viewContext.fetch(FetchRequest<Car>()).map(\.name) == ["Kept"])
    }
}
