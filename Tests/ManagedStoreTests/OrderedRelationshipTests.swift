import Foundation
import ManagedStore
import TestSupport
import Testing

final class Album: ManagedObject {
    @Attribute var title: String
    @Relationship var tracks: [Track]
}

final class Track: ManagedObject {
    @Attribute var title: String
    @Relationship var album: Album?
}

/// Album and Track as they were before `tracks` was ordered (a model version of their own).
final class LooseAlbum: ManagedObject {
    @Attribute var title: String
    @Relationship var tracks: Set<LooseTrack>
}

final class LooseTrack: ManagedObject {
    @Attribute var title: String
    @Relationship var album: LooseAlbum?
}

enum AlbumModel {
    static func entities(ordered: Bool) -> [EntityDescription] {
        [
            EntityDescription(
                name: "Album", managedObjectClass: ordered ? Album.self : LooseAlbum.self,
                attributes: [AttributeDescription(name: "title", type: .string)],
                relationships: [
                    .toMany("tracks", destination: "Track", inverse: "album", isOrdered: ordered, deleteRule: .cascade)
                ]),
            EntityDescription(
                name: "Track", managedObjectClass: ordered ? Track.self : LooseTrack.self,
                attributes: [AttributeDescription(name: "title", type: .string)],
                relationships: [.toOne("album", destination: "Album", inverse: "tracks")]),
        ]
    }
    static let model = ManagedObjectModel(entities: entities(ordered: true))
    static let unordered = ManagedObjectModel(entities: entities(ordered: false))
}

/// Core Data's ordered to-many relationships (`isOrdered`, an `NSOrderedSet` property): the
/// members keep the order they are given, through inserts, moves, removals, moves to another
/// owner, deletions, saves, undo and child contexts; each member's position is a column of its
/// table beside its to-one key (`Z_FOK_album`). Checked against the test's own list per album,
/// and the stored order against Python's `sqlite3` reading the columns.
@MainActor @Suite struct OrderedRelationshipTests {
    /// `ECBRATES_SEED` rebuilds a run; else the suite's own seed.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? 1207

    /// Each album's track titles, in order, as Python's `sqlite3` reads the store's columns.
    static func storedOrder(_ url: URL) throws -> [String: [String]] {
        let script = """
            import sqlite3, sys, json
            db = sqlite3.connect(sys.stdin.read())
            out = {}
            for (album, key) in db.execute('SELECT title, Z_PK FROM Album'):
                rows = db.execute('SELECT title FROM Track WHERE album = ? ORDER BY Z_FOK_album IS NULL, Z_FOK_album, Z_PK', (key,))
                out[album] = [r[0] for r in rows]
            print(json.dumps(out))
            """
        let output = try PythonTools.run(script, input: Data(url.path.utf8))
        return try JSONDecoder().decode([String: [String]].self, from: output)
    }

    @Test func tracksKeepTheOrderTheyAreGivenThroughEveryChange() throws {
        var generator = SeededGenerator(seed: Self.seed)
        for round in 0..<12 {
            let directory = TemporaryDirectory()
            let url = directory.file("Albums.sqlite")
            let container = try makeContainer(in: directory, name: "Albums", model: AlbumModel.model)
            let context = container.viewContext
            context.undoManager = UndoManager()
            var albums: [Album] = []
            var expected: [String: [String]] = [:]
            var serial = 0
            for name in ["a", "b", "c"] {
                let album = Album(context: context)
                album.title = name
                albums.append(album)
                expected[name] = []
            }
            func check(_ step: Int, _ what: String) {
                for album in albums {
                    #expect(
                        album.tracks.map(\.title) == expected[album.title],
                        "ECBRATES_SEED=\(Self.seed) round \(round) step \(step) (\(what)), album \(album.title)")
                }
            }
            func track(in album: Album) -> Track? { album.tracks.randomElement(using: &generator) }
            for step in 0..<40 {
                let album = albums.randomElement(using: &generator)!
                var what = ""
                switch Int.random(in: 0..<9, using: &generator) {
                case 0, 1:
                    what = "append through the to-one"
                    serial += 1
                    let new = Track(context: context)
                    new.title = "t\(serial)"
                    new.album = album
                    expected[album.title]!.append(new.title)
                case 2:
                    what = "insert at a place"
                    serial += 1
                    let new = Track(context: context)
                    new.title = "t\(serial)"
                    let place = Int.random(in: 0...album.tracks.count, using: &generator)
                    album.tracks.insert(new, at: place)
                    expected[album.title]!.insert(new.title, at: place)
                case 3:
                    what = "move within"
                    guard album.tracks.count > 1 else { continue }
                    var list = album.tracks
                    let moved = list.remove(at: Int.random(in: 0..<list.count, using: &generator))
                    list.insert(moved, at: Int.random(in: 0...list.count, using: &generator))
                    album.tracks = list
                    expected[album.title] = list.map(\.title)
                case 4:
                    what = "remove from the list"
                    guard let gone = track(in: album) else { continue }
                    album.tracks.removeAll { $0 === gone }
                    context.delete(gone)
                    expected[album.title]!.removeAll { $0 == gone.title }
                case 5:
                    what = "move to another album"
                    guard let moved = track(in: album) else { continue }
                    let other = albums.randomElement(using: &generator)!
                    moved.album = other
                    if other !== album {
                        expected[album.title]!.removeAll { $0 == moved.title }
                        expected[other.title]!.append(moved.title)
                    }
                case 6:
                    what = "delete a track"
                    guard let gone = track(in: album) else { continue }
                    context.delete(gone)
                    expected[album.title]!.removeAll { $0 == gone.title }
                case 7:
                    what = "reverse"
                    album.tracks = album.tracks.reversed()
                    expected[album.title]!.reverse()
                default:
                    what = "save"
                    try context.save()
                }
                check(step, what)
            }
            // Undo takes a reordering back (the steps above are one event: their group is dropped).
            context.processPendingChanges()
            context.undoManager?.removeAllActions()
            let before = albums.map { $0.tracks.map(\.title) }
            albums[0].tracks = albums[0].tracks.reversed()
            context.processPendingChanges()
            context.undoManager?.undo()
            #expect(albums.map { $0.tracks.map(\.title) } == before, "ECBRATES_SEED=\(Self.seed) round \(round) undo")
            try context.save()
            // Another context reads the stored order; so does Python, from the columns.
            let other = container.newBackgroundContext()
            let reread = try other.performAndWait {
                try Dictionary(
                    uniqueKeysWithValues: other.fetch(FetchRequest<Album>()).map { ($0.title, $0.tracks.map(\.title)) })
            }
            #expect(reread == expected, "ECBRATES_SEED=\(Self.seed) round \(round), another context")
            #expect(try Self.storedOrder(url) == expected, "ECBRATES_SEED=\(Self.seed) round \(round), sqlite3")
        }
    }

    /// As an ordered set: an object twice keeps its first place; appending through the to-one
    /// puts it last; `value(forKey:)` is an array in order; setting the same album is no change.
    @Test func anOrderedRelationshipIsAnOrderedSet() throws {
        let container = try makeContainer(in: nil, name: "Albums", model: AlbumModel.model)
        let context = container.viewContext
        let album = Album(context: context)
        album.title = "Blue"
        let tracks = (1...3).map { index in
            let track = Track(context: context)
            track.title = "t\(index)"
            return track
        }
        album.tracks = [tracks[2], tracks[0], tracks[2], tracks[1], tracks[0]]
        #expect(album.tracks.map(\.title) == ["t3", "t1", "t2"])
        #expect((album.value(forKey: "tracks") as? [ManagedObject])?.map(\.objectID) == album.tracks.map(\.objectID))
        try context.save()
        let late = Track(context: context)
        late.title = "t4"
        late.album = album
        #expect(album.tracks.map(\.title) == ["t3", "t1", "t2", "t4"])
        try context.save()
        tracks[1].album = album
        #expect(!context.hasChanges)
        // A child context sees the order, reorders, and its save carries the order up.
        let child = ManagedObjectContext(concurrencyType: .mainQueue)
        child.parent = context
        let copy = try #require(child.existingObject(with: album.objectID) as? Album)
        #expect(copy.tracks.map(\.title) == ["t3", "t1", "t2", "t4"])
        copy.tracks = [copy.tracks[3]] + copy.tracks.dropLast()
        try child.save()
        #expect(album.tracks.map(\.title) == ["t4", "t3", "t1", "t2"])
    }

    /// The member's table has the position column beside its key (Core Data's `Z_FOK_`), so the
    /// member entity's version hash changes with the order; an ordered many-to-many is refused.
    @Test func thePositionIsAColumnOfTheMembersTable() throws {
        let ordered = AlbumModel.model.entityVersionHashesByName
        let unordered = AlbumModel.unordered.entityVersionHashesByName
        #expect(ordered["Track"] != unordered["Track"] && ordered["Album"] != unordered["Album"])
        let directory = TemporaryDirectory()
        let container = try makeContainer(in: directory, name: "Albums", model: AlbumModel.model)
        try container.viewContext.save()
        let columns = try PythonTools.run(
            "import sqlite3,sys; print([r[1] for r in sqlite3.connect(sys.stdin.read()).execute('PRAGMA table_info(Track)')])",
            input: Data(directory.file("Albums.sqlite").path.utf8))
        #expect(String(decoding: columns, as: UTF8.self) == "['Z_PK', 'Z_OPT', 'title', 'album', 'Z_FOK_album']\n")

        let manyToMany = ManagedObjectModel(entities: [
            EntityDescription(
                name: "Tag", managedObjectClass: ManagedObject.self, attributes: [],
                relationships: [.toMany("notes", destination: "Memo2", inverse: "tags", isOrdered: true)]),
            EntityDescription(
                name: "Memo2", managedObjectClass: ManagedObject.self, attributes: [],
                relationships: [.toMany("tags", destination: "Tag", inverse: "notes")]),
        ])
        var said = ModelMistakeTests.problems(manyToMany) ?? ""
        #expect(
            said.contains(
                "Tag.notes is ordered and many-to-many, which ManagedStore does not keep (an ordered relationship's inverse must be to-one)"
            ), "\(said)")

        // One Track entity cannot be laid out for two models that order Album.tracks differently.
        let loose = AlbumModel.entities(ordered: false)
        _ = ManagedObjectModel(entities: loose)
        let orderedAlbum = AlbumModel.entities(ordered: true)[0]
        said = ModelMistakeTests.problems(ManagedObjectModel(entities: [orderedAlbum, loose[1]])) ?? ""
        #expect(
            said.contains(
                "entity Track is also in another model, where none of its to-ones is the inverse of an ordered relationship, and its table cannot fit both (make an EntityDescription per model version)"
            ), "\(said)")
    }

    /// A lightweight migration orders a relationship: the store gains the position column, the
    /// stored members come in the order they were stored, and a new one is appended last.
    @Test func aMigrationOrdersAStoredRelationship() throws {
        let directory = TemporaryDirectory()
        do {
            let old = try makeContainer(in: directory, name: "Albums", model: AlbumModel.unordered)
            let context = old.viewContext
            let album = LooseAlbum(context: context)
            album.title = "Kind of Blue"
            for title in ["So What", "Freddie Freeloader", "Blue in Green"] {
                let track = LooseTrack(context: context)
                track.title = title
                track.album = album
            }
            try context.save()
            try old.persistentStoreCoordinator.remove(old.persistentStoreCoordinator.persistentStores[0])
        }
        let container = try makeContainer(in: directory, name: "Albums", model: AlbumModel.model)
        let context = container.viewContext
        let album = try #require(try context.fetch(FetchRequest<Album>()).first)
        #expect(album.tracks.map(\.title) == ["So What", "Freddie Freeloader", "Blue in Green"])
        let added = Track(context: context)
        added.title = "All Blues"
        added.album = album
        album.tracks.swapAt(0, 1)
        try context.save()
        let expected = ["Freddie Freeloader", "So What", "Blue in Green", "All Blues"]
        #expect(album.tracks.map(\.title) == expected)
        #expect(try Self.storedOrder(directory.file("Albums.sqlite")) == ["Kind of Blue": expected])
    }

    /// As in Core Data, a reorder is a change of the owner's relationship (its members' places
    /// are not properties of their own), and a batch update cannot move a member (it would keep
    /// its old place).
    @Test func aReorderIsAChangeOfTheOwnersRelationship() throws {
        let container = try makeContainer(in: nil, name: "Albums", model: AlbumModel.model)
        let context = container.viewContext
        let album = Album(context: context)
        album.title = "Blue"
        album.tracks = (1...3).map { index in
            let track = Track(context: context)
            track.title = "t\(index)"
            return track
        }
        try context.save()
        #expect(album.changedValues().isEmpty)
        album.tracks = album.tracks.reversed()
        #expect(album.changedValues().keys.sorted() == ["tracks"])
        #expect(album.tracks[0].changedValues().isEmpty, "a member's place is not a property of its own")
        #expect(album.tracks[0].committedValues().keys.sorted() == ["album", "title"])
        try context.save()
        #expect {
            try context.execute(BatchUpdateRequest<Track>(propertiesToUpdate: ["album": .null]))
        } throws: { error in
            "\(error)".contains("album is the inverse of an ordered relationship, which a batch update does not set")
        }
    }

    /// A lightweight migration that renames the to-one (a renaming identifier) keeps the order:
    /// the position column follows its to-one.
    @Test func renamingTheInverseKeepsTheOrder() throws {
        let directory = TemporaryDirectory()
        do {
            let container = try makeContainer(in: directory, name: "Albums", model: AlbumModel.model)
            let album = Album(context: container.viewContext)
            album.title = "Blue"
            let tracks = ["a", "b", "c"].map { title in
                let track = Track(context: container.viewContext)
                track.title = title
                return track
            }
            album.tracks = tracks
            try container.viewContext.save()
            album.tracks = [tracks[2], tracks[0], tracks[1]]  // not the keys' order
            try container.viewContext.save()
            try container.persistentStoreCoordinator.remove(container.persistentStoreCoordinator.persistentStores[0])
        }
        let renamed = ManagedObjectModel(entities: [
            EntityDescription(
                name: "Album", managedObjectClass: Record.self,
                attributes: [AttributeDescription(name: "title", type: .string)],
                relationships: [
                    .toMany("tracks", destination: "Track", inverse: "record", isOrdered: true, deleteRule: .cascade)
                ]),
            EntityDescription(
                name: "Track", managedObjectClass: Song2.self,
                attributes: [AttributeDescription(name: "title", type: .string)],
                relationships: [.toOne("record", destination: "Album", inverse: "tracks", renamingIdentifier: "album")]),
        ])
        let container = try makeContainer(in: directory, name: "Albums", model: renamed)
        let record = try #require(try container.viewContext.fetch(FetchRequest<Record>()).first)
        #expect(record.tracks.map(\.title) == ["c", "a", "b"])
    }
}

final class Record: ManagedObject {
    @Attribute var title: String
    @Relationship var tracks: [Song2]
}

final class Song2: ManagedObject {
    @Attribute var title: String
    @Relationship var record: Record?
}
