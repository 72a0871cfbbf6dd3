import Foundation
import ManagedStore
import TestSupport
import Testing

/// `changedValues()` with relationships. Apple (NSManagedObject): it returns "the keys and new
/// values of persistent properties with changes since the last fetching or saving", and it "is
/// implemented efficiently without firing relationship faults"; a relationship is a persistent
/// property, and a change to one side of a relationship changes the other (inverse) side too.
/// `committedValues(forKeys:)`: "the persistent properties … as they were when last fetched or
/// saved"; `changedValuesForCurrentEvent()`: "the keys and old values of persistent properties
/// that have changed since the last posting of NSManagedObjectContextObjectsDidChange".
@Suite struct ChangedRelationshipTests {
    @Test func aLinkIsInBothSidesChangedValuesWithTheCommittedAndEventValuesToMatch() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "School", model: SchoolModel.model)
        let writer = container.newBackgroundContext()
        let (annID, mathID, artID) = try writer.performAndWait {
            () throws -> (ManagedObjectID, ManagedObjectID, ManagedObjectID) in
            let ann = Student.named("Ann", in: writer)
            let math = Course.named("Math", in: writer), art = Course.named("Art", in: writer)
            ann.courses.insert(art)
            try writer.save()
            return (ann.objectID, math.objectID, art.objectID)
        }
        let context = container.newBackgroundContext()
        context.performAndWait {
            let ann = context.object(with: annID) as! Student
            let math = context.object(with: mathID) as! Course
            #expect(ann.changedValues().isEmpty && math.changedValues().isEmpty, "nothing changed yet")
            ann.courses.insert(math)
            #expect(ann.changedValues() == ["courses": .objects([mathID, artID])], "the new members")
            #expect(math.changedValues() == ["students": .objects([annID])], "the inverse side too")
            #expect(ann.committedValues(forKeys: ["courses"]) == ["courses": .objects([artID])], "as saved")
            #expect(math.committedValues(forKeys: ["students"]) == ["students": .objects([])])
            // The event is not over: its old values.
            #expect(ann.changedValuesForCurrentEvent() == ["courses": .objects([artID])])
            #expect(math.changedValuesForCurrentEvent() == ["students": .objects([])])
            context.processPendingChanges()
            #expect(ann.changedValuesForCurrentEvent().isEmpty, "the event is over")
            #expect(ann.changedValues() == ["courses": .objects([mathID, artID])], "still unsaved")
            // Taking it back leaves nothing changed.
            ann.courses.remove(math)
            #expect(ann.changedValues().isEmpty && math.changedValues().isEmpty)
        }
    }

    /// A one-to-many: a book moved from one author to another changes the book's to-one and
    /// both authors' to-manys; deleting a book changes its author's.
    @Test func aMovedOrDeletedMemberChangesEveryToManyItLeavesOrJoins() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "Library", model: LibraryModel.model)
        let writer = container.newBackgroundContext()
        let ids = try writer.performAndWait { () throws -> [ManagedObjectID] in
            let tolstoy = Author(context: writer), chekhov = Author(context: writer)
            tolstoy.name = "Tolstoy"
            chekhov.name = "Chekhov"
            let book = Book(context: writer), other = Book(context: writer)
            book.title = "War and Peace"
            other.title = "Resurrection"
            book.author = tolstoy
            other.author = tolstoy
            try writer.save()
            return [tolstoy.objectID, chekhov.objectID, book.objectID, other.objectID]
        }
        let context = container.newBackgroundContext()
        context.performAndWait {
            let tolstoy = context.object(with: ids[0]) as! Author, chekhov = context.object(with: ids[1]) as! Author
            let book = context.object(with: ids[2]) as! Book
            book.author = chekhov
            #expect(book.changedValues() == ["author": .object(ids[1])])
            #expect(tolstoy.changedValues() == ["books": .objects([ids[3]])])
            #expect(chekhov.changedValues() == ["books": .objects([ids[2]])])
            #expect(tolstoy.isFault, "changedValues fired no fault")
            #expect(tolstoy.committedValues(forKeys: ["books"]) == ["books": .objects([ids[2], ids[3]])])
            context.processPendingChanges()
            context.delete(context.object(with: ids[3]))
            #expect(tolstoy.changedValues() == ["books": .objects([])])
            #expect(tolstoy.changedValuesForCurrentEvent() == ["books": .objects([ids[3]])], "before this event")
        }
    }
}
