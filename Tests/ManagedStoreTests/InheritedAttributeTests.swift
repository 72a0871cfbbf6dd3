import Foundation
import ManagedStore
import TestSupport
import Testing

/// A class that declares attributes for its subclasses.
class Dated: ManagedObject {
    @Attribute var day: Int64
}

/// An entity's class whose attributes are half inherited.
final class Reading: Dated {
    @Attribute var label: String
    @Attribute var value: Decimal
}

/// `@Attribute` properties are found among the class's stored fields, its superclasses' too
/// (the storage `_day` of `Dated` for `Reading.day`): reads, writes, predicates and sort
/// descriptors on an inherited attribute reach the right column.
@Suite struct InheritedAttributeTests {
    static let model = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Reading", managedObjectClass: Reading.self,
            attributes: [
                AttributeDescription(name: "day", type: .integer64),
                AttributeDescription(name: "label", type: .string),
                AttributeDescription(name: "value", type: .decimal),
            ])
    ])

    @Test func inheritedAndOwnAttributesReadWriteAndQueryTheirOwnColumns() async throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(in: directory, name: "Inherited", model: Self.model)
        let context = container.newBackgroundContext()
        let rows: [(Int64, String, Decimal)] = [
            (3, "c", Decimal(string: "1.5")!), (1, "a", Decimal(string: "-2")!), (2, "b", Decimal(string: "0.25")!),
        ]
        try await context.perform {
            for (day, label, value) in rows {
                // The inherited attribute is written last and first, around the own ones.
                let reading = Reading(context: context)
                reading.day = day
                reading.label = label
                reading.value = value
                reading.day = day
            }
            try context.save()
        }
        let view = container.viewContext
        let fetched = try await view.perform {
            try view.fetch(
                FetchRequest<Reading>(
                    predicate: #Predicate { $0.day >= 2 }, sortBy: [SortDescriptor(\.day, order: .reverse)])
            )
            .map { ($0.day, $0.label, $0.value) }
        }
        #expect(fetched.map(\.0) == [3, 2])
        #expect(fetched.map(\.1) == ["c", "b"])
        #expect(fetched.map(\.2) == [Decimal(string: "1.5")!, Decimal(string: "0.25")!])
        // The columns hold what was written, whatever the order of the class's fields.
        let stored = try await view.perform {
            try view.fetchValues(
                FetchRequest<Reading>(sortBy: [SortDescriptor(\.label)]), properties: ["day", "label"])
        }
        #expect(stored == [[.integer(1), .string("a")], [.integer(2), .string("b")], [.integer(3), .string("c")]])
    }
}
