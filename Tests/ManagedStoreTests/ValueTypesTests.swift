import Foundation
import ManagedStore
import TestSupport
import Testing

struct Address: Codable, Hashable, TransformableAttribute {
    var street: String
    var city: String
    var lines: [String] = []
}

final class Customer: ManagedObject {
    @Attribute var name: String
    @Attribute var address: Address
    @Attribute var previous: Address?
}

/// Transformable (Codable) attributes, and dictionary-style fetches typed by key path.
@Suite struct ValueTypesTests {
    static let model = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Customer", managedObjectClass: Customer.self,
            attributes: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "address", type: .transformable),
                AttributeDescription(name: "previous", type: .transformable, isOptional: true),
            ]),
        TestModel.note,
    ])

    /// Core Data stores a transformable attribute's value whole and gives it back equal, in
    /// another context, and a value set to an equal one is no change.
    @Test func aCodableValueIsStoredWholeAndComesBackEqual() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "Values", model: Self.model)
        let home = Address(street: "1 Rue de la Paix", city: "Paris", lines: ["3e étage", "porte B"])
        let id = try await container.performBackgroundTask { context in
            let customer = Customer(context: context)
            customer.name = "Ada"
            customer.address = home
            try context.save()
            return customer.objectID
        }
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let customer = try other.existingObject(with: id) as! Customer
            #expect(customer.address == home)
            #expect(customer.previous == nil)
            customer.address = Address(street: "1 Rue de la Paix", city: "Paris", lines: ["3e étage", "porte B"])
            #expect(!customer.hasPersistentChangedValues, "an equal value stores equal bytes")
            customer.previous = home
            customer.address = Address(street: "2 Main St", city: "Springfield")
            try other.save()
        }
        let fresh = container.newBackgroundContext()
        try fresh.performAndWait {
            let customer = try fresh.existingObject(with: id) as! Customer
            #expect(customer.address.city == "Springfield")
            #expect(customer.previous == home)
            #expect(try fresh.count(for: FetchRequest<Customer>(predicate: #Predicate { $0.previous == home })) == 1)
        }
    }

    @Test func valuesFetchedByKeyPathAreTyped() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes(["a", "b", "c"], into: container)
        let context = container.viewContext
        let rows = try context.fetchValues(
            FetchRequest<Note>(sortBy: [SortDescriptor(\.title, order: .reverse)]), \.title, \.stars, \.body)
        #expect(rows.map(\.0) == ["c", "b", "a"])
        #expect(rows.map(\.1) == [2, 1, 0] as [Int16])
        #expect(rows.allSatisfy { $0.2 == nil })
        let titles = try context.fetchValues(FetchRequest<Note>(predicate: #Predicate { $0.stars >= 1 }), \.title)
        #expect(Set(titles) == ["b", "c"])
    }

    @Test func aKeyPathThatIsNotAnAttributeIsRefused() throws {
        let container = try makeContainer(in: nil)
        #expect {
            _ = try container.viewContext.fetchValues(FetchRequest<Note>(), \.shout)
        } throws: { error in
            "\(error)".hasPrefix("cannot fetch Note: the key path ")
                && "\(error)".hasSuffix(" is not an attribute to fetch")
        }
    }
}

/// An entity described by its class's `@Attribute` properties: written once.
@Suite struct DeclaredEntityTests {
    final class Declared: ManagedObject {
        @Attribute var title: String
        @Attribute var stars: Int16
        @Attribute var body: String?
        @Attribute var address: Address?
    }

    @Test func theAttributesComeFromTheClassWithTheDefaultsGivenBeside() throws {
        let entity = EntityDescription(
            name: "Declared", declaredBy: Declared.self, defaults: ["stars": .integer(3)],
            renamedAttributes: ["body": "text"], uniquenessConstraints: [["title"]])
        #expect(
            entity.attributes.map(\.description) == [
                "title: string", "stars: integer16 = 3", "body: string?", "address: transformable?",
            ])
        #expect(entity.attribute(named: "body")?.renamingIdentifier == "text")
        let container = try makeContainer(in: nil, name: "Declared", model: ManagedObjectModel(entities: [entity]))
        let object = Declared(context: container.viewContext)
        object.title = "t"
        #expect(object.stars == 3)
        try container.viewContext.save()
    }
}

/// Aggregates typed by key path.
@Suite struct TypedAggregateTests {
    @Test func aggregatesComeTypedAndGrouped() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes(["a", "b", "c", "d"], into: container)
        let context = container.viewContext
        let (first, last, count, stars) = try context.aggregate(
            FetchRequest<Note>(), .minimum(\.created), .maximum(\.created), .count, .sum(\.stars))
        #expect(first == Date(timeIntervalSince1970: 0))
        #expect(last == Date(timeIntervalSince1970: 3 * 86_400))
        #expect(count == 4 && stars == 6)
        let none = try context.aggregate(
            FetchRequest<Note>(predicate: #Predicate { $0.stars > 9 }), .maximum(\.title), .count)
        #expect(none.0 == nil && none.1 == 0)
        let groups = try context.aggregate(
            FetchRequest<Note>(predicate: #Predicate { $0.stars >= 1 }), groupedBy: \.title, .count, .maximum(\.stars))
        #expect(groups.map(\.0) == ["b", "c", "d"])
        #expect(groups.map(\.1) == [1, 1, 1])
        #expect(groups.map(\.2) == [1, 2, 3] as [Int16?])
    }
}
