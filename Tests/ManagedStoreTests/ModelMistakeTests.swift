import Foundation
import ManagedStore
import Testing

final class Bookcase: ManagedObject {
    @Attribute var label: String
    @Relationship var tomes: Set<Tome>
}

final class Tome: ManagedObject {
    @Attribute var titel: String  // the entity's attribute is "title": a misspelling
    @Relationship var bookcase: Bookcase?
}

/// A mistake in a model (a relationship to an entity the model does not have, an inverse that
/// is not one, an `@Attribute` the entity has no attribute for) is an error from
/// `loadPersistentStores`, naming the entity and the property, every mistake at once: what Core
/// Data reports for an invalid model, where a trap would give the program no chance to say so.
@Suite struct ModelMistakeTests {
    static func model(destination: String = "Bookcase", inverse: String = "bookcase") -> ManagedObjectModel {
        ManagedObjectModel(entities: [
            EntityDescription(
                name: "Bookcase", managedObjectClass: Bookcase.self,
                attributes: [AttributeDescription(name: "label", type: .string)],
                relationships: [.toMany("tomes", destination: "Tome", inverse: inverse)]),
            EntityDescription(
                name: "Tome", managedObjectClass: Tome.self,
                attributes: [AttributeDescription(name: "title", type: .string)],
                relationships: [.toOne("bookcase", destination: destination, inverse: "tomes")]),
        ])
    }

    static func problems(_ model: ManagedObjectModel) -> String? {
        do {
            _ = try makeContainer(in: nil, name: "Mistakes", model: model)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aRelationshipToAnEntityTheModelLacksIsAnError() {
        let said = Self.problems(Self.model(destination: "Bookcasee"))
        #expect(
            said?.contains("relationship Tome.bookcase names entity Bookcasee, which the model does not have") == true,
            "\(said ?? "no error")")
    }

    @Test func anInverseThatIsNotOneIsAnError() {
        let said = Self.problems(Self.model(inverse: "bookcasse"))
        #expect(
            said?.contains("relationship Bookcase.tomes names inverse bookcasse, which entity Tome does not have")
                == true, "\(said ?? "no error")")
    }

    #if DEBUG
        /// Found by reflection in debug builds (the tests' build); a release build, which skips
        /// the reflection for the command line's start-up, traps at the property's first use.
        @Test func anAttributePropertyTheEntityLacksIsAnErrorWithTheOthers() {
            let said = Self.problems(Self.model(destination: "Bookcasee"))
            #expect(said?.hasPrefix("the model cannot be used: ") == true, "\(said ?? "no error")")
            #expect(
                said?.contains("Tome.titel is an @Attribute, but entity Tome has no attribute 'titel'") == true,
                "\(said ?? "no error")")
            #expect(said?.contains("names entity Bookcasee") == true, "every mistake at once: \(said ?? "no error")")
        }
    #endif
}
