import Foundation
import ManagedStore
import TestSupport
import Testing

/// A person whose friends are people: a many-to-many relationship that is its own inverse.
final class Person: ManagedObject {
    @Attribute var name: String
    @Attribute var friendCount: Int64?
    @Relationship var friends: Set<Person>
}

enum PeopleModel {
    static let model = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Person", managedObjectClass: Person.self,
            attributes: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "friendCount", type: .integer64, derivationExpression: "friends.@count"),
            ],
            relationships: [.toMany("friends", destination: "Person", inverse: "friends")],
            uniquenessConstraints: [["name"]])
    ])
}

/// A relationship from an entity to itself may be its own inverse, as in Core Data ("This
/// entity can be the same as the entity at the source (a reflexive relationship)", Core Data
/// Programming Guide, "Creating Managed Object Relationships"): a to-many `friends` whose inverse
/// is `friends` is symmetric, each link seen from both objects.
@Suite struct ReflexiveManyToManyTests {
    /// The links of the join table, read with SQL, as name pairs.
    static func storedRows(_ container: PersistentContainer) throws -> [[String]] {
        try sqliteRows(
            container.persistentStoreCoordinator.persistentStores[0].url,
            "SELECT o.name, m.name FROM Z_Person_friends AS j JOIN Person AS o ON o.Z_PK = j.Z_OWNER "
                + "JOIN Person AS m ON m.Z_PK = j.Z_MEMBER ORDER BY 1, 2")
    }

    /// How many rows the join table has, whatever they join.
    static func rowCount(_ container: PersistentContainer) throws -> Int {
        let rows = try sqliteRows(
            container.persistentStoreCoordinator.persistentStores[0].url, "SELECT COUNT(*) FROM Z_Person_friends")
        return Int(rows[0][0])!
    }

    static func person(_ name: String, in context: ManagedObjectContext) -> Person {
        let person = Person(context: context)
        person.name = name
        return person
    }

    /// Three new people, not linked.
    static func annBobAndCat(in context: ManagedObjectContext) -> (Person, Person, Person) {
        (person("ann", in: context), person("bob", in: context), person("cat", in: context))
    }

    @Test func aLinkMadeFromEitherSideIsSeenFromBoth() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "People", model: PeopleModel.model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let (ann, bob, cat) = Self.annBobAndCat(in: context)
            ann.friends.insert(bob)
            #expect(bob.friends == [ann])
            cat.friends = [ann, bob]
            #expect(ann.friends == [bob, cat] && bob.friends == [ann, cat])
            bob.friends.remove(ann)
            #expect(ann.friends == [cat] && bob.friends == [cat])
            ann.friends.insert(ann)
            #expect(ann.friends == [ann, cat], "a person may be their own friend")
            try context.save()
        }
        #expect(
            try Self.storedRows(container) == [
                ["ann", "ann"], ["ann", "cat"], ["bob", "cat"], ["cat", "ann"], ["cat", "bob"],
            ], "a link is a row each way")

        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let people = try reader.fetch(FetchRequest<Person>(sortBy: [SortDescriptor(\.name)]))
            #expect(people.map { Set($0.friends.map(\.name)) } == [["ann", "cat"], ["cat"], ["ann", "bob"]])
            #expect(people.map(\.friendCount) == [2, 1, 2], "the derived count counts each friend once")
            let popular = try reader.fetch(
                FetchRequest<Person>(predicate: #Predicate { $0.friends.count >= 2 }, sortBy: [SortDescriptor(\.name)]))
            #expect(popular.map(\.name) == ["ann", "cat"])
            let bobsFriends = try reader.fetch(
                FetchRequest<Person>(
                    predicate: #Predicate { $0.friends.contains { $0.name == "bob" } }, sortBy: [SortDescriptor(\.name)]
                ))
            #expect(bobsFriends.map(\.name) == ["cat"])

            // Deleting a person (nullify) takes their links, both ways.
            reader.delete(people[2])
            #expect(people[0].friends == [people[0]] && people[1].friends.isEmpty)
            try reader.save()
        }
        #expect(try Self.storedRows(container) == [["ann", "ann"]])
        let fresh = container.newBackgroundContext()
        try fresh.performAndWait {
            let people = try fresh.fetch(FetchRequest<Person>(sortBy: [SortDescriptor(\.name)]))
            #expect(people.map(\.friendCount) == [1, 0])
        }
    }

    @Test func aBatchDeleteTakesTheLinksBothWays() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "People", model: PeopleModel.model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let (ann, bob, cat) = Self.annBobAndCat(in: context)
            ann.friends = [bob, cat]
            bob.friends.insert(cat)
            try context.save()
            try context.execute(BatchDeleteRequest(FetchRequest<Person>(predicate: #Predicate { $0.name != "cat" })))
        }
        #expect(try Self.rowCount(container) == 0)
        let fresh = container.newBackgroundContext()
        try fresh.performAndWait {
            let cat = try fresh.fetch(FetchRequest<Person>())
            #expect(cat.map(\.name) == ["cat"] && cat[0].friends.isEmpty && cat[0].friendCount == 0)
        }
    }

    /// A child context's links reach its parent as links both ways, and undo takes one back.
    @Test func aChildsLinksAndAnUndoKeepBothSidesInStep() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "People", model: PeopleModel.model)
        let parent = container.newBackgroundContext()
        let (annID, bobID) = try parent.performAndWait { () throws -> (ManagedObjectID, ManagedObjectID) in
            let (ann, bob) = (Self.person("ann", in: parent), Self.person("bob", in: parent))
            try parent.save()
            return (ann.objectID, bob.objectID)
        }
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        try child.performAndWait {
            let bob = child.object(with: bobID) as! Person
            bob.friends.insert(child.object(with: annID) as! Person)
            try child.save()
        }
        try parent.performAndWait {
            let (ann, bob) = (parent.object(with: annID) as! Person, parent.object(with: bobID) as! Person)
            #expect(ann.friends == [bob] && bob.friends == [ann])
            try parent.save()
            parent.undoManager = UndoManager()
        }
        #expect(try Self.storedRows(container) == [["ann", "bob"], ["bob", "ann"]])
        parent.performAndWait {
            (parent.object(with: annID) as! Person).friends.removeAll()
        }
        parent.performAndWait {
            let (ann, bob) = (parent.object(with: annID) as! Person, parent.object(with: bobID) as! Person)
            #expect(bob.friends.isEmpty)
            parent.undo()
            #expect(ann.friends == [bob] && bob.friends == [ann])
        }
    }

    /// A lightweight migration adds the relationship (its join table) to a store without it.
    @Test func aMigrationAddsTheRelationship() throws {
        let dir = TemporaryDirectory()
        let before = ManagedObjectModel(entities: [
            EntityDescription(
                name: "Person", managedObjectClass: ManagedObject.self,
                attributes: [AttributeDescription(name: "name", type: .string)], uniquenessConstraints: [["name"]])
        ])
        let old = try makeContainer(in: dir, name: "People", model: before)
        try old.viewContext.performAndWait {
            for name in ["ann", "bob"] {
                let person = ManagedObject(entity: before.entitiesByName["Person"]!, insertInto: old.viewContext)
                person.setValue(name, forKey: "name")
            }
            try old.viewContext.save()
        }
        let container = try makeContainer(in: dir, name: "People", model: PeopleModel.model)
        try container.viewContext.performAndWait {
            let people = try container.viewContext.fetch(FetchRequest<Person>(sortBy: [SortDescriptor(\.name)]))
            people[0].friends.insert(people[1])
            try container.viewContext.save()
        }
        #expect(try Self.storedRows(container) == [["ann", "bob"], ["bob", "ann"]])
    }

    /// Property: after seeded random links and unlinks (from either person, one at a time or a
    /// whole set), insertions, deletions, saves and rollbacks, the editing context sees the
    /// test's own undirected graph with its unsaved changes; a new context, the derived counts
    /// and the join table (every link a row each way, nothing else) see the saved graph.
    @Test func everyViewAgreesWithAnUndirectedGraphTheTestKeeps() throws {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
        var random = SeededGenerator(seed: seed)
        struct Graph: Equatable {
            var people = Set<String>()
            /// Unordered pairs, as sorted two-element arrays ([a, a] for a self-link).
            var links = Set<[String]>()
            func friends(of name: String) -> Set<String> {
                Set(links.compactMap { $0[0] == name ? $0[1] : $0[1] == name ? $0[0] : nil })
            }
            static func pair(_ a: String, _ b: String) -> [String] { [min(a, b), max(a, b)] }
        }
        for round in 0..<5 {
            let dir = TemporaryDirectory()
            let container = try makeContainer(in: dir, name: "People", model: PeopleModel.model)
            let context = container.newBackgroundContext()
            var saved = Graph(), pending = Graph()
            var serial = 0
            var log: [String] = []
            for _ in 0..<60 {
                let op = Int.random(in: 0..<8, using: &random)
                let picks = (Int.random(in: 0..<100, using: &random), Int.random(in: 0..<100, using: &random))
                let flag = Bool.random(using: &random)
                try context.performAndWait {
                    let people = try context.fetch(FetchRequest<Person>(sortBy: [SortDescriptor(\.name)]))
                    func pick(_ index: Int) -> Person? { people.isEmpty ? nil : people[index % people.count] }
                    switch op {
                    case 0, 1:
                        serial += 1
                        let name = "p\(serial)"
                        _ = Self.person(name, in: context)
                        pending.people.insert(name)
                        log.append("insert \(name)")
                    case 2, 3:
                        guard let a = pick(picks.0), let b = pick(picks.1) else { return }
                        if flag { a.friends.insert(b) } else { b.friends.insert(a) }
                        pending.links.insert(Graph.pair(a.name, b.name))
                        log.append("link \(a.name) \(b.name)")
                    case 4:
                        guard let a = pick(picks.0), let b = pick(picks.1) else { return }
                        if flag { a.friends.remove(b) } else { b.friends.remove(a) }
                        pending.links.remove(Graph.pair(a.name, b.name))
                        log.append("unlink \(a.name) \(b.name)")
                    case 5:
                        guard let a = pick(picks.0) else { return }
                        let chosen = people.filter { _ in Bool.random(using: &random) }
                        a.friends = Set(chosen)
                        for other in pending.friends(of: a.name) { pending.links.remove(Graph.pair(a.name, other)) }
                        for other in chosen { pending.links.insert(Graph.pair(a.name, other.name)) }
                        log.append("set \(a.name) \(chosen.map(\.name))")
                    case 6:
                        guard let a = pick(picks.0) else { return }
                        context.delete(a)
                        pending.people.remove(a.name)
                        pending.links = pending.links.filter { !$0.contains(a.name) }
                        log.append("delete \(a.name)")
                    default:
                        if flag {
                            try context.save()
                            saved = pending
                            log.append("save")
                        } else {
                            context.rollback()
                            pending = saved
                            log.append("rollback")
                        }
                    }
                }
                let label = "seed \(seed), round \(round), steps \(log)"
                let seen = try context.performAndWait { () throws -> [String: Set<String>] in
                    let people = try context.fetch(FetchRequest<Person>())
                    return Dictionary(uniqueKeysWithValues: people.map { ($0.name, Set($0.friends.map(\.name))) })
                }
                #expect(
                    seen == Dictionary(uniqueKeysWithValues: pending.people.map { ($0, pending.friends(of: $0)) }),
                    "\(label): the editing context")
                guard log.last == "save" || log.last == "rollback" else { continue }
                let reader = container.newBackgroundContext()
                let stored = try reader.performAndWait { () throws -> [String: (Set<String>, Int64?)] in
                    let people = try reader.fetch(FetchRequest<Person>())
                    return Dictionary(
                        uniqueKeysWithValues: people.map { ($0.name, (Set($0.friends.map(\.name)), $0.friendCount)) })
                }
                #expect(Set(stored.keys) == saved.people, "\(label): a new context's people")
                for (name, (friends, count)) in stored {
                    #expect(friends == saved.friends(of: name), "\(label): \(name)'s friends")
                    #expect(count == Int64(saved.friends(of: name).count), "\(label): \(name)'s derived count")
                }
                var rows = Set<[String]>()
                for link in saved.links {
                    rows.insert(link)
                    rows.insert([link[1], link[0]])
                }
                #expect(Set(try Self.storedRows(container)) == rows, "\(label): the join table")
                #expect(try Self.rowCount(container) == rows.count, "\(label): no other row")
            }
        }
    }
}
