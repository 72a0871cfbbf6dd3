import Foundation
import ManagedStore
import Synchronization
import TestSupport
import Testing

/// The examples of `docs/library.md` for what round 5 brought (validation rules and
/// overrides), run as written, as ``LibraryGuideExampleTests`` runs round 4's: each test runs
/// the lines between `// docs/library.md: <name>` and `// end of the example`, and
/// ``theGuideShowsEachExampleWordForWord()`` checks the guide's block of that name is them.
/// A volume with a derived search title, for the guide's search example.
final class Edition: ManagedObject {
    @Attribute var title: String
    @Attribute var searchTitle: String?
}

@MainActor @Suite struct LibraryGuideRound5Tests {
    @Test func theGuideShowsEachExampleWordForWord() throws {
        try LibraryGuideExampleTests.expectTheGuideShows(
            LibraryGuideExampleTests.examplesInThisFile(#filePath), count: 9)
    }

    /// Apple, `allowsExternalBinaryDataStorage`: "When enabled, Core Data heuristically
    /// decides on a per-value basis if it should save the data directly in the database or store
    /// a URI to a separate file which it manages for you."
    @Test func aLargeValueIsAFileBesideTheStore() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(in: directory, name: "Guide", model: AttachmentModel.model)
        let context = container.viewContext
        let pdf = Data(repeating: 0x25, count: 300_000)
        // docs/library.md: external-storage
        let scan = Attachment(context: context)
        scan.name = "scan.pdf"
        scan.blob = pdf  // 300 KB: kept in a file in .Guide_SUPPORT/_EXTERNAL_DATA beside Guide.sqlite
        scan.thumbnail = Data(count: 2_000)  // no external storage: in the row
        try context.save()
        // end of the example
        let files = try FileManager.default.contentsOfDirectory(
            atPath: directory.file(".Guide_SUPPORT/_EXTERNAL_DATA").path)
        #expect(files.count == 1)
        context.refresh(scan, mergeChanges: false)
        #expect(scan.blob == pdf)
    }

    /// The app: a model with inheritance (an abstract entity and two sub-entities), an
    /// ordered relationship to the abstract entity, and validation rules, used as a Core Data
    /// programmer would.
    @Test func aModelWithInheritanceAnOrderedRelationshipAndRules() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(in: directory, name: "Guide", model: PlaylistModel.model)
        let context = container.viewContext
        // docs/library.md: inheritance
        let playlist = Playlist(context: context)
        playlist.name = "Monday"
        let song = Song(context: context)
        song.title = "So What"
        song.seconds = 562
        let episode = Episode(context: context)
        episode.title = "The Daily"
        episode.show = "NYT"
        playlist.entries = [episode, song]  // ordered, objects of either sub-entity
        try context.save()
        let media = try context.fetch(FetchRequest<Media>(sortBy: [SortDescriptor(\.title)]))  // a Song, an Episode
        let songs = try context.fetch(FetchRequest<Song>())  // the song alone
        // end of the example
        #expect(media.map { "\(type(of: $0))" } == ["Song", "Episode"])
        #expect(songs.map(\.title) == ["So What"])
        // Another context: the order and the classes come from the store.
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let stored = try #require(try other.fetch(FetchRequest<Playlist>()).first)
            #expect(stored.entries.map(\.title) == ["The Daily", "So What"])
            #expect(stored.entries.map { "\(type(of: $0))" } == ["Episode", "Song"])
            #expect((stored.entries.last as? Song)?.seconds == 562)
        }
        // The rule the abstract entity declares holds for its sub-entities' objects.
        let untitled = Episode(context: context)
        (untitled.title, untitled.show) = ("", "NYT")
        playlist.entries.append(untitled)
        #expect {
            try context.save()
        } throws: { error in
            (error as? ManagedStoreError)?.validationErrorCode == .stringTooShort
        }
    }

    /// Apple, `isOrdered`: "A Boolean value that indicates whether the relationship preserves
    /// an ordering of objects."
    @Test func anOrderedRelationshipKeepsTheOrderItIsGiven() throws {
        let container = try makeContainer(in: nil, name: "Guide", model: AlbumModel.model)
        let context = container.viewContext
        // docs/library.md: ordered-relationship
        let album = Album(context: context)
        album.title = "Kind of Blue"
        album.tracks = ["So What", "Freddie Freeloader", "Blue in Green"].map { title in
            let track = Track(context: context)
            track.title = title
            return track
        }
        album.tracks.swapAt(0, 1)  // a move: the two tracks' positions change
        let late = Track(context: context)
        late.title = "All Blues"
        late.album = album  // set from the to-one side: appended last, as in Core Data
        try context.save()
        // end of the example
        #expect(album.tracks.map(\.title) == ["Freddie Freeloader", "So What", "Blue in Green", "All Blues"])
    }

    /// Apple, "Object Validation": "If there are multiple validation failures in a single
    /// operation, Core Data returns an NSError object with the code
    /// NSValidationMultipleErrorsError".
    @Test func aSaveReportsEveryRuleItBreaksWithCoreDatasCodes() throws {
        let model = ValidationRuleTests.model(titleRules: [.minimumLength(1)])
        let container = try makeContainer(in: nil, name: "Guide", model: model)
        let context = container.viewContext
        var codes: [ValidationErrorCode?] = []
        // docs/library.md: validation
        let manuscript = Manuscript(context: context)
        manuscript.title = ""  // the model: .minimumLength(1)
        manuscript.pages = 1_001  // the model: .maximumValue(.integer(1_000)), and a predicate: even
        do {
            try context.save()
        } catch let error as ManagedStoreError {
            codes.append(error.validationErrorCode)  // .multipleErrors (1560): every failure is in the error
            if case .validationFailed(let failures) = error {
                codes += failures.map(\.code)  // .stringTooShort (1670), .numberTooLarge (1610), .managedObjectValidation (1550)
            }
        }
        // end of the example
        #expect(codes == [.multipleErrors, .stringTooShort, .numberTooLarge, .managedObjectValidation])
        #expect(context.hasChanges)
    }

    /// Swift 6: `Notification` is not `Sendable`, so the classic
    /// `perform { mergeChanges(fromContextDidSave: note) }` does not compile; the changes it
    /// carries (`ContextSaveChanges`) are, and merge the same way.
    @Test func aWorkersSaveMergedByHandThroughItsSendableChanges() throws {
        let container = try makeContainer(in: nil)
        let view = container.newBackgroundContext()
        let worker = container.newBackgroundContext()
        let merged = Mutex<[String]>([])
        let watcher = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.objectsDidChangeNotification, object: view, queue: nil
        ) { note in
            let inserted =
                note.userInfo?[ManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<ManagedObject>
                ?? []
            merged.withLock { $0 += inserted.map { ($0 as! Note).title } }
        }
        defer { NotificationCenter.default.removeObserver(watcher) }
        // docs/library.md: merge-by-hand
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveNotification, object: worker, queue: nil
        ) { note in
            guard let changes = ContextSaveChanges(note) else { return }  // Sendable, unlike the note
            view.perform { view.mergeChanges(fromContextDidSave: changes) }
        }
        try worker.performAndWait {
            let note = Note(context: worker)
            note.title = "Merged"
            note.stars = 3
            note.created = Date(timeIntervalSinceReferenceDate: 0)
            try worker.save()
        }
        NotificationCenter.default.removeObserver(observer)
        // end of the example
        view.performAndWait {}
        #expect(merged.withLock { $0 } == ["Merged"], "the view context took the worker's note, as an insertion")
    }

    /// Core Data sorts by `author.name` and keeps the groups its `havingPredicate` accepts.
    @Test func aSortThroughAnAuthorAndAHavingCondition() throws {
        let library = try LibraryModel.container()
        let scores = try makeContainer(in: nil, name: "Scores", model: HavingTests.model)
        var titles: [String] = []
        var groups: [(String, Int, Double)] = []
        try library.viewContext.performAndWait {
            for (name, title) in [("Zola", "Germinal"), ("Austen", "Emma")] {
                let author = Author(context: library.viewContext)
                author.name = name
                let book = Book(context: library.viewContext)
                book.title = title
                book.author = author
            }
            try library.viewContext.save()
        }
        try scores.viewContext.performAndWait {
            for (player, points) in [("ann", Int64(9)), ("ann", 8), ("bob", 5)] {
                let score = Score(context: scores.viewContext)
                score.player = player
                score.points = points
            }
            try scores.viewContext.save()
        }
        try library.viewContext.performAndWait {
            let context = library.viewContext
            // docs/library.md: sort-through
            let byAuthor = try context.fetch(
                FetchRequest<Book>(sortBy: [SortDescriptor(\.author?.name), SortDescriptor(\.title)]))  // Austen's, then Zola's
            // end of the example
            titles = byAuthor.map(\.title)
        }
        try scores.viewContext.performAndWait {
            let context = scores.viewContext
            // docs/library.md: having
            let regulars = try context.aggregate(
                FetchRequest<Score>(), groupedBy: \.player, having: .compare(.count, .greater, .integer(1)), .count,
                .sum(\.points))  // [("ann", 2, 17.0)]: only players with more than one score
            // end of the example
            groups = regulars
        }
        #expect(titles == ["Emma", "Germinal"])
        #expect(groups.map { "\($0.0) \($0.1) \($0.2)" } == ["ann 2 17.0"])
    }

    /// What `#Predicate` on Linux cannot say, in the nearest forms the store runs.
    @Test func theNearestFormsOfWhatThePredicateMacroRejects() throws {
        let model = ManagedObjectModel(entities: [
            EntityDescription(
                name: "Edition", managedObjectClass: Edition.self,
                attributes: [
                    AttributeDescription(name: "title", type: .string),
                    AttributeDescription(name: "searchTitle", type: .string, derivationExpression: "canonical:(title)"),
                ])
        ])
        let container = try makeContainer(in: nil, name: "Volumes", model: model)
        let context = container.viewContext
        for title in ["War and Peace", "Peace at Last", "PEACE, Love", "Pëace of Mind", "Peacetime"] {
            Edition(context: context).title = title
        }
        try context.save()
        // docs/library.md: search
        let needle = "peace"  // lower-cased, without accents, as canonical: makes it
        let found = try context.fetch(
            FetchRequest<Edition>(predicate: #Predicate { ($0.searchTitle ?? "").contains(needle) }))
        let endings = try context.fetch(FetchRequest<Edition>(predicate: #Predicate { $0.title.contains("Peace") }))
            .filter { $0.title.hasSuffix("Peace") }
        // end of the example
        #expect(
            Set(found.map(\.title)) == ["War and Peace", "Peace at Last", "PEACE, Love", "Pëace of Mind", "Peacetime"])
        #expect(endings.map(\.title) == ["War and Peace"])
    }

    /// Core Data's configurations: one container, two stores, each object saved to the store of
    /// its entity's configuration.
    @Test func twoStoresOfOneModel() throws {
        let directory = TemporaryDirectory()
        let entities = TwoStoreModel.entities()
        let (periodical, fascicle, patron, borrowing) = (entities[0], entities[1], entities[2], entities[3])
        // docs/library.md: several-stores
        let model = ManagedObjectModel(
            entities: [periodical, fascicle, patron, borrowing],
            configurations: ["Catalogue": [periodical, fascicle], "Lending": [patron, borrowing]])
        let container = PersistentContainer(name: "Library", managedObjectModel: model)
        container.persistentStoreDescriptions = ["Catalogue", "Lending"].map { name in
            var description = PersistentStoreDescription(url: directory.file("\(name).sqlite"))
            description.configuration = name
            return description
        }
        try container.loadPersistentStores()
        let context = container.viewContext
        let nature = Periodical(context: context)
        nature.name = "Nature"
        let ada = Patron(context: context)
        ada.name = "Ada"
        try context.save()  // Nature to Catalogue.sqlite, Ada to Lending.sqlite: both or neither
        // end of the example
        let stores = container.persistentStoreCoordinator.persistentStores
        #expect(nature.objectID.persistentStore === stores[0] && ada.objectID.persistentStore === stores[1])
        let tables = try PythonTools.run(
            """
            import sqlite3, sys
            for path in sys.stdin.read().split():
                db = sqlite3.connect(path)
                print(sorted(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'Z%'")))
            """,
            input: Data((directory.file("Catalogue.sqlite").path + " " + directory.file("Lending.sqlite").path).utf8))
        #expect(String(decoding: tables, as: UTF8.self) == "['Fascicle', 'Periodical']\n['Borrowing', 'Patron']\n")
    }
}

class Media: ManagedObject {
    @Attribute var title: String
    @Relationship var playlist: Playlist?
}

final class Song: Media {
    @Attribute var seconds: Int32
}

final class Episode: Media {
    @Attribute var show: String
}

final class Playlist: ManagedObject {
    @Attribute var name: String
    @Relationship var entries: [Media]
}

/// The guide's model: an abstract entity with rules, two sub-entities, an ordered relationship.
enum PlaylistModel {
    static let media = EntityDescription(
        name: "Media", managedObjectClass: Media.self, isAbstract: true,
        attributes: [AttributeDescription(name: "title", type: .string, validationRules: [.minimumLength(1)])],
        relationships: [.toOne("playlist", destination: "Playlist", inverse: "entries")])
    static let model = ManagedObjectModel(entities: [
        media,
        EntityDescription(
            name: "Song", managedObjectClass: Song.self, superentity: media,
            attributes: [AttributeDescription(name: "seconds", type: .integer32)]),
        EntityDescription(
            name: "Episode", managedObjectClass: Episode.self, superentity: media,
            attributes: [AttributeDescription(name: "show", type: .string)]),
        EntityDescription(
            name: "Playlist", managedObjectClass: Playlist.self,
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [.toMany("entries", destination: "Media", inverse: "playlist", isOrdered: true)]),
    ])
}
