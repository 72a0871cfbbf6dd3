import Foundation
import ManagedStore
import TestSupport
import Testing

/// A controller whose index names sections by their length, as a subclass overrides
/// `sectionIndexTitle(forSectionName:)` in Core Data.
final class LengthIndexedController: FetchedResultsController<Note> {
    override func sectionIndexTitle(forSectionName sectionName: String) -> String? { "\(sectionName.count)" }
}

/// A delegate that gives the index titles, as Core Data's
/// `controller(_:sectionIndexTitleForSectionName:)`.
final class LowercaseIndexDelegate: FetchedResultsControllerDelegate {
    func controller(
        _ controller: FetchedResultsController<Note>, sectionIndexTitleForSectionName sectionName: String
    )
        -> String?
    {
        sectionName.first.map { String($0).lowercased() }
    }
}

/// The fetched results controller's section index (Core Data's `sectionIndexTitles`,
/// `sectionIndexTitle(forSectionName:)`, `section(forSectionIndexTitle:at:)`): by default the
/// capitalized first letter of each section's name, each once; overridable by a subclass or
/// the delegate.
@MainActor @Suite struct SectionIndexTests {
    static let titles = ["apple", "avocado", "banana", "e\u{301}clair", "zebra"]

    static func controller<Controller: FetchedResultsController<Note>>(
        _ make: (FetchRequest<Note>, ManagedObjectContext) -> Controller, in container: PersistentContainer
    ) throws -> Controller {
        let controller = make(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]), container.viewContext)
        try controller.performFetch()
        return controller
    }

    @Test func theIndexHasEachSectionsCapitalizedFirstLetterOnce() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes(Self.titles, into: container)
        let controller = try Self.controller(
            { FetchedResultsController(fetchRequest: $0, managedObjectContext: $1, sectionNameKeyPath: \Note.title) },
            in: container)
        #expect(controller.sections?.map(\.indexTitle) == ["A", "A", "B", "E\u{301}", "Z"])
        #expect(controller.sectionIndexTitles == ["A", "B", "E\u{301}", "Z"])
        #expect(controller.section(forSectionIndexTitle: "A", at: 0) == 0, "the first section with the title")
        #expect(controller.section(forSectionIndexTitle: "B", at: 1) == 2)
        #expect(controller.section(forSectionIndexTitle: "C", at: 2) == 3, "no C: the next title's section")
        #expect(controller.section(forSectionIndexTitle: "Ω", at: 9) == 4, "past the last: the last")
    }

    @Test func aSubclassOrTheDelegateNamesTheIndex() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes(Self.titles, into: container)
        let byLength = try Self.controller(
            { LengthIndexedController(fetchRequest: $0, managedObjectContext: $1, sectionNameKeyPath: \Note.title) },
            in: container)
        #expect(byLength.sections?.map(\.indexTitle) == ["5", "7", "6", "6", "5"])
        #expect(byLength.sectionIndexTitles == ["5", "7", "6"])
        let plain = try Self.controller(
            { FetchedResultsController(fetchRequest: $0, managedObjectContext: $1, sectionNameKeyPath: \Note.title) },
            in: container)
        let delegate = LowercaseIndexDelegate()
        plain.delegate = delegate
        #expect(plain.sectionIndexTitles == ["a", "b", "e\u{301}", "z"])
        #expect(plain.sections?.last?.indexTitle == "z")
    }
}
