import Foundation
import ManagedStore
import TestSupport
import Testing

/// The test entity: a note, unique by title.
final class Note: ManagedObject {
    @Attribute var title: String
    @Attribute var body: String?
    @Attribute var stars: Int16
    @Attribute var created: Date
    @Attribute var price: Decimal?

    /// Not an attribute: predicates on it must be refused.
    var shout: String { title.uppercased() }
}

/// A second entity without constraints, for optimistic-locking tests.
final class Counter: ManagedObject {
    @Attribute var name: String
    @Attribute var value: Int64
    @Attribute var flag: Bool
}

enum TestModel {
    static let note = EntityDescription(
        name: "Note", managedObjectClass: Note.self,
        attributes: [
            AttributeDescription(name: "title", type: .string),
            AttributeDescription(name: "body", type: .string, isOptional: true),
            AttributeDescription(name: "stars", type: .integer16, defaultValue: .integer(0)),
            AttributeDescription(name: "created", type: .date, defaultValue: .date(Date(timeIntervalSince1970: 0))),
            AttributeDescription(name: "price", type: .decimal, isOptional: true),
        ],
        uniquenessConstraints: [["title"]],
        indexes: [["created"]])

    static let counter = EntityDescription(
        name: "Counter", managedObjectClass: Counter.self,
        attributes: [
            AttributeDescription(name: "name", type: .string),
            AttributeDescription(name: "value", type: .integer64, defaultValue: .integer(0)),
            AttributeDescription(name: "flag", type: .boolean, defaultValue: .boolean(false)),
        ])

    static let model = ManagedObjectModel(entities: [note, counter])
}

/// A loaded container on a store file in `directory` (or in memory).
func makeContainer(
    in directory: TemporaryDirectory?, name: String = "Test",
    model: ManagedObjectModel = TestModel.model, timeout: TimeInterval? = nil
) throws -> PersistentContainer {
    let container = PersistentContainer(name: name, managedObjectModel: model)
    let url = directory?.file("\(name).sqlite") ?? URL(fileURLWithPath: "/dev/null")
    var description = PersistentStoreDescription(url: url)
    if let timeout { description.timeout = timeout }
    container.persistentStoreDescriptions = [description]
    try container.loadPersistentStores()
    return container
}

/// Inserts notes titled `titles` through a new background context and saves.
func insertNotes(_ titles: [String], into container: PersistentContainer) async throws {
    let context = container.newBackgroundContext()
    try await context.perform {
        for (index, title) in titles.enumerated() {
            let note = Note(context: context)
            note.title = title
            note.stars = Int16(index)
            note.created = Date(timeIntervalSince1970: Double(index) * 86_400)
        }
        try context.save()
    }
}

/// Counts the notes in the store through a fresh context (so that no cache answers).
func storedNoteCount(_ container: PersistentContainer) async throws -> Int {
    let context = container.newBackgroundContext()
    return try await context.perform { try context.count(for: FetchRequest<Note>()) }
}
