import Foundation
import ManagedStore
import TestSupport
import Testing

/// The same entity as a program without the transients declares it.
final class PlainLoan: ManagedObject {
    @Attribute var title: String
}

final class Loan: ManagedObject {
    @Attribute var title: String
    @Attribute var shelfLabel: String
    @Attribute var cursor: Int64?
}

/// Transient attributes (Core Data's `isTransient`): the object holds them, a change of one is
/// a change of the object, but the store never sees them: no column, nothing written, the
/// default in every object read from the store or turned into a fault; a fetch cannot use one.
@MainActor @Suite struct TransientAttributeTests {
    static func model(transients: Bool = true) -> ManagedObjectModel {
        var attributes = [AttributeDescription(name: "title", type: .string)]
        if transients {
            attributes += [
                AttributeDescription(
                    name: "shelfLabel", type: .string, defaultValue: .string("unshelved"),
                    validationRules: [.maximumLength(10)], isTransient: true),
                AttributeDescription(name: "cursor", type: .integer64, isOptional: true, isTransient: true),
            ]
        }
        return ManagedObjectModel(entities: [
            EntityDescription(
                name: "Loan", managedObjectClass: transients ? Loan.self : PlainLoan.self, attributes: attributes,
                uniquenessConstraints: [["title"]])
        ])
    }

    static func columns(_ url: URL) throws -> [String] {
        String(
            decoding: try PythonTools.run(
                "import sqlite3, sys; print(' '.join(r[1] for r in sqlite3.connect(sys.stdin.read()).execute('PRAGMA table_info(Loan)')))",
                input: Data(url.path.utf8)), as: UTF8.self
        ).split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    @Test func aTransientChangeIsAChangeThatNoSaveWrites() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "readings", model: Self.model())
        let context = container.viewContext
        let reading = Loan(context: context)
        reading.title = "Middlemarch"
        #expect(reading.shelfLabel == "unshelved" && reading.cursor == nil, "the defaults")
        reading.cursor = 42
        try context.save()
        #expect(reading.cursor == 42, "a save keeps it in the object")
        #expect(try Self.columns(dir.file("readings.sqlite")) == ["Z_PK", "Z_OPT", "title"])

        reading.shelfLabel = "B-12"
        #expect(reading.hasChanges && context.updatedObjects.contains(reading), "a change of the object")
        #expect(reading.changedValues().isEmpty, "changedValues has persistent properties only")
        try context.save()
        #expect(!context.hasChanges && reading.shelfLabel == "B-12")

        let other = container.newBackgroundContext()
        let seen = try other.performAndWait {
            let fetched = try other.fetch(FetchRequest<Loan>())[0]
            return "\(fetched.title) \(fetched.shelfLabel) \(String(describing: fetched.cursor))"
        }
        #expect(seen == "Middlemarch unshelved nil", "read from the store: the defaults")

        context.refresh(reading, mergeChanges: true)
        #expect(reading.shelfLabel == "B-12", "a merge keeps it")
        context.refresh(reading, mergeChanges: false)
        #expect(reading.shelfLabel == "unshelved" && reading.cursor == nil, "a fault forgets it")

        reading.shelfLabel = "too long a label"
        do {
            try context.save()
            Issue.record("the transient's rule was not checked")
        } catch let error as ManagedStoreError {
            #expect(error.validationErrorCode == .stringTooLong, "validated as Core Data validates transients")
        }
    }

    @Test func aFetchCannotUseATransientAndTheStoreDoesNotKnowOne() throws {
        let dir = TemporaryDirectory()
        do {
            let context = try makeContainer(in: dir, name: "readings", model: Self.model(transients: false)).viewContext
            let reading = PlainLoan(context: context)
            reading.title = "Emma"
            try context.save()
        }
        // The same store opens with the transients added: no migration, nothing to migrate.
        #expect(Self.model().versionChecksum == Self.model(transients: false).versionChecksum)
        let context = try makeContainer(in: dir, name: "readings", model: Self.model()).viewContext
        #expect(try context.fetch(FetchRequest<Loan>()).map(\.title) == ["Emma"])
        for request in [
            FetchRequest<Loan>(predicate: #Predicate { $0.shelfLabel == "B-12" }),
            FetchRequest<Loan>(sortBy: [SortDescriptor(\.shelfLabel)]),
        ] {
            do {
                _ = try context.fetch(request)
                Issue.record("a fetch used a transient attribute")
            } catch {
                #expect("\(error)".contains("shelfLabel"), "\(error)")
            }
        }
    }

    @Test func aDerivedTransientIsAnErrorOfTheModel() {
        let model = ManagedObjectModel(entities: [
            EntityDescription(
                name: "Loan", managedObjectClass: Loan.self,
                attributes: [
                    AttributeDescription(name: "title", type: .string),
                    AttributeDescription(
                        name: "shelfLabel", type: .string, derivationExpression: "uppercase:(title)", isTransient: true),
                    AttributeDescription(name: "cursor", type: .integer64, isOptional: true, isTransient: true),
                ])
        ])
        #expect(throws: ManagedStoreError.self) { try model.validate() }
    }

    /// Core Data undoes a transient change like any other.
    @Test func anUndoTakesATransientChangeBack() throws {
        let container = try makeContainer(in: nil, name: "loans", model: Self.model())
        let context = container.viewContext
        let loan = Loan(context: context)
        loan.title = "Persuasion"
        try context.save()
        context.undoManager = UndoManager()
        loan.shelfLabel = "C-3"
        context.processPendingChanges()
        context.undo()
        #expect(loan.shelfLabel == "unshelved")
        context.redo()
        #expect(loan.shelfLabel == "C-3")
    }

    /// The APIs that name columns refuse a transient's name (or leave it out), never trap.
    @Test func theAPIsThatNameColumnsKnowATransientIsNotOne() throws {
        let container = try makeContainer(in: nil, name: "loans", model: Self.model())
        let context = container.viewContext
        let loan = Loan(context: context)
        loan.title = "Emma"
        try context.save()
        #expect(loan.committedValues(forKeys: ["title", "shelfLabel"]) == ["title": .string("Emma")])
        do {
            _ = try context.aggregate(AggregateRequest<Loan>(groupBy: ["shelfLabel"], aggregates: [.count]))
            Issue.record("grouped by a transient")
        } catch {
            #expect("\(error)".contains("'shelfLabel' is a transient attribute"), "\(error)")
        }
        #expect(throws: ManagedStoreError.self) {
            _ = try context.fetchValues(FetchRequest<Loan>(), properties: ["shelfLabel"])
        }
        // An inserted object's transient change after its insertion was announced is undone.
        context.undoManager = UndoManager()
        let fresh = Loan(context: context)
        fresh.title = "Sanditon"
        context.processPendingChanges()
        fresh.cursor = 7
        context.processPendingChanges()
        context.undo()
        #expect(fresh.cursor == nil && fresh.isInserted)
    }
}
