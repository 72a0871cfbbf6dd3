import Foundation
import ManagedStore
import Testing

/// Predicates and sort descriptors compile to SQL; what cannot is refused by name.
@MainActor @Suite struct FetchRequestTests {
    /// Notes: a (stars 0, body nil, price 1.1790), b (1, "x", 10), c (2, "y", 9.5), d (3, nil, 100).
    private func fixture() throws -> PersistentContainer {
        let container = try makeContainer(in: nil)
        let view = container.viewContext
        let rows: [(String, Int16, String?, String)] = [
            ("a", 0, nil, "1.1790"), ("b", 1, "x", "10"), ("c", 2, "y", "9.5"), ("d", 3, nil, "100"),
        ]
        for (title, stars, body, price) in rows {
            let note = Note(context: view)
            note.title = title
            note.stars = stars
            note.body = body
            note.price = Decimal(string: price)
            note.created = Date(timeIntervalSince1970: Double(stars) * 86_400)
        }
        try view.save()
        return container
    }

    private func titles(
        _ container: PersistentContainer, _ predicate: Predicate<Note>?,
        sort: [SortDescriptor<Note>] = [SortDescriptor(\.title)]
    ) throws -> [String] {
        try container.viewContext.fetch(FetchRequest(predicate: predicate, sortBy: sort)).map(\.title)
    }

    @Test func comparisonsAndLogic() throws {
        let container = try fixture()
        #expect(try titles(container, #Predicate { $0.stars > 1 }) == ["c", "d"])
        #expect(try titles(container, #Predicate { $0.stars <= 1 }) == ["a", "b"])
        #expect(try titles(container, #Predicate { $0.title != "a" && $0.stars < 3 }) == ["b", "c"])
        #expect(try titles(container, #Predicate { $0.title == "a" || $0.stars >= 3 }) == ["a", "d"])
        #expect(try titles(container, #Predicate { !($0.stars == 1) }) == ["a", "c", "d"])
        let since = Date(timeIntervalSince1970: 2 * 86_400)
        #expect(try titles(container, #Predicate { $0.created >= since }) == ["c", "d"])
    }

    @Test func comparisonsOnOptionals() throws {
        let container = try fixture()
        #expect(try titles(container, #Predicate { $0.body == nil }) == ["a", "d"])
        #expect(try titles(container, #Predicate { $0.body != nil }) == ["b", "c"])
        #expect(try titles(container, #Predicate { $0.body == "x" }) == ["b"])
        #expect(try titles(container, #Predicate { $0.body != "x" }) == ["a", "c", "d"], "nil != \"x\", as in Swift")
        #expect(try titles(container, #Predicate { ($0.body ?? "none") == "none" }) == ["a", "d"])
        #expect(try titles(container, #Predicate { $0.body! == "y" }) == ["c"])
    }

    @Test func listMembershipAndPrefixes() throws {
        let container = try fixture()
        let wanted = ["b", "d", "zz"]
        #expect(try titles(container, #Predicate { wanted.contains($0.title) }) == ["b", "d"])
        let none: [String] = []
        #expect(try titles(container, #Predicate { none.contains($0.title) }) == [])
        let bodies: [String?] = ["x", nil]
        #expect(try titles(container, #Predicate { bodies.contains($0.body) }) == ["a", "b", "d"])
        #expect(try titles(container, #Predicate { $0.title.starts(with: "c") }) == ["c"])
    }

    @Test func decimalsCompareAndSortByValue() throws {
        let container = try fixture()
        let same = Decimal(string: "1.179")!
        #expect(try titles(container, #Predicate { $0.price == same }) == ["a"], "1.1790 and 1.179 are one value")
        let nine = Decimal(9)
        #expect(try titles(container, #Predicate { $0.price! > nine }) == ["b", "c", "d"])
        let byPrice = try container.viewContext.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.price)])).map(
            \.title)
        #expect(byPrice == ["a", "c", "b", "d"], "1.179 < 9.5 < 10 < 100, not text order")
        let stored = try container.viewContext.fetch(FetchRequest<Note>(predicate: #Predicate { $0.title == "a" }))[0]
            .price
        #expect(stored?.description == "1.179")
    }

    @Test func sortLimitOffsetAndCount() throws {
        let container = try fixture()
        var request = FetchRequest<Note>(sortBy: [SortDescriptor(\.stars, order: .reverse)])
        request.fetchLimit = 2
        request.fetchOffset = 1
        #expect(try container.viewContext.fetch(request).map(\.title) == ["c", "b"])
        #expect(try container.viewContext.count(for: request) == 2)
        #expect(try container.viewContext.count(for: FetchRequest<Note>(predicate: #Predicate { $0.stars > 0 })) == 3)
    }

    @Test func aBooleanAttributeAloneIsACondition() throws {
        let container = try makeContainer(in: nil)
        let view = container.viewContext
        for (name, flag) in [("on", true), ("off", false)] {
            let counter = Counter(context: view)
            counter.name = name
            counter.flag = flag
        }
        try view.save()
        #expect(try view.fetch(FetchRequest<Counter>(predicate: #Predicate { $0.flag })).map(\.name) == ["on"])
        #expect(try view.fetch(FetchRequest<Counter>(predicate: #Predicate { !$0.flag })).map(\.name) == ["off"])
    }

    @Test func aComputedPropertyIsRefusedNotScanned() throws {
        let container = try fixture()
        #expect {
            try titles(container, #Predicate { $0.shout == "A" })
        } throws: { error in
            "\(error)"
                == "cannot fetch Note: the key path of type KeyPath<Note, String> is not an attribute or relationship of Note"
        }
    }

    @Test func arithmeticIsRefusedNamingTheExpression() throws {
        let container = try fixture()
        #expect {
            try titles(container, #Predicate { $0.stars + 1 > 2 })
        } throws: { error in
            "\(error)".hasPrefix(
                "cannot fetch Note: the predicate expression Arithmetic<KeyPath<Variable<Note>, Int16>, Value<Int16>> has no SQL translation"
            )
        }
    }

    @Test func aSortOnAComputedPropertyIsRefused() throws {
        let container = try fixture()
        #expect {
            try titles(container, nil, sort: [SortDescriptor(\.shout)])
        } throws: { error in
            "\(error)" == "cannot fetch Note: a sort descriptor whose key path is not an attribute of Note"
        }
    }
}

/// Grouped aggregates over stored rows.
@MainActor @Suite struct AggregateRequestTests {
    @Test func aggregatesGroupAndKeepTheirTypes() throws {
        let container = try makeContainer(in: nil)
        let view = container.viewContext
        // Notes by body: x → stars 1 and 4, price 10 and 9.5; y → stars 2, price 100; nil → stars 0.
        let rows: [(String, String?, Int16, String)] = [
            ("a", nil, 0, "1.179"), ("b", "x", 1, "10"), ("c", "y", 2, "100"), ("d", "x", 4, "9.5"),
        ]
        for (title, body, stars, price) in rows {
            let note = Note(context: view)
            note.title = title
            note.body = body
            note.stars = stars
            note.price = Decimal(string: price)
            note.created = Date(timeIntervalSince1970: Double(stars) * 86_400)
        }
        try view.save()
        let pending = Note(context: view)
        pending.title = "pending"  // unsaved: aggregates count only the store

        let whole = try view.aggregate(
            AggregateRequest<Note>(aggregates: [
                .count, .min("created"), .max("price"), .min("price"), .countDistinct("body"),
            ]))
        #expect(whole.count == 1)
        #expect(
            whole[0] == [
                .integer(4), .date(Date(timeIntervalSince1970: 0)), .decimal(100), .decimal(Decimal(string: "1.179")!),
                .integer(2),
            ])

        let grouped = try view.aggregate(
            AggregateRequest<Note>(
                predicate: #Predicate { $0.stars > 0 }, groupBy: ["body"],
                aggregates: [.count, .sum("stars"), .average("stars")]))
        #expect(
            grouped == [
                [.string("x"), .integer(2), .double(5), .double(2.5)],
                [.string("y"), .integer(1), .double(2), .double(2)],
            ])
        // Only extremes: each runs as its own subquery (so an index can answer it), with the
        // predicate's arguments bound once per subquery.
        let extremes = try view.aggregate(
            AggregateRequest<Note>(
                predicate: #Predicate { $0.stars > 1 },
                aggregates: [.min("created"), .max("created"), .max("price")]))
        #expect(
            extremes == [
                [
                    .date(Date(timeIntervalSince1970: 2 * 86_400)), .date(Date(timeIntervalSince1970: 4 * 86_400)),
                    .decimal(100),
                ]
            ])
        // A distinct count runs as COUNT(*) over a SELECT DISTINCT; it still ignores nil, also
        // under a predicate whose top level is an OR.
        let distinct = try view.aggregate(
            AggregateRequest<Note>(
                predicate: #Predicate { $0.stars == 0 || $0.stars == 4 },
                aggregates: [.countDistinct("body"), .count]))
        #expect(distinct == [[.integer(1), .integer(2)]])
        let none = try view.aggregate(
            AggregateRequest<Note>(
                predicate: #Predicate { $0.stars > 10 }, aggregates: [.min("created"), .max("created")]))
        #expect(none == [[.null, .null]])
        #expect(throws: ManagedStoreError.self) {
            _ = try view.aggregate(AggregateRequest<Note>(aggregates: [.max("nonexistent")]))
        }
    }
}

/// `fetchValues(_:properties:)`: rows of values, Core Data's dictionary result type.
@MainActor @Suite struct FetchValuesTests {
    @Test func valuesComeInTheRequestsOrderWithoutObjectsOrUnsavedChanges() throws {
        let container = try makeContainer(in: nil)
        let view = container.viewContext
        for (title, stars, price) in [("a", 3, "1.5"), ("b", 1, "20"), ("c", 2, "0.25")] as [(String, Int16, String)] {
            let note = Note(context: view)
            note.title = title
            note.stars = stars
            note.price = Decimal(string: price)
        }
        try view.save()
        let held = view.registeredObjects.count
        let pending = Note(context: view)
        pending.title = "unsaved"
        pending.stars = 9

        var request = FetchRequest<Note>(
            predicate: #Predicate { $0.stars >= 1 }, sortBy: [SortDescriptor(\.stars, order: .reverse)])
        #expect(
            try view.fetchValues(request, properties: ["title", "price"]) == [
                [.string("a"), .decimal(Decimal(string: "1.5")!)],
                [.string("c"), .decimal(Decimal(string: "0.25")!)],
                [.string("b"), .decimal(20)],
            ])
        request.fetchLimit = 1
        request.fetchOffset = 1
        #expect(try view.fetchValues(request, properties: ["stars"]) == [[.integer(2)]])
        #expect(view.registeredObjects.count == held + 1, "no objects were made (the one more is the unsaved note)")
        #expect(throws: ManagedStoreError.self) { _ = try view.fetchValues(request, properties: ["nonexistent"]) }
    }

    /// `Note.fetchRequest()`, as the `fetchRequest()` Xcode generates for an `NSManagedObject`
    /// subclass returns an `NSFetchRequest<Note>`: the entity's request, typed, set up like any.
    @Test func anEntitysFetchRequestIsItsTypedRequest() throws {
        let container = try makeContainer(in: nil)
        let context = container.viewContext
        try context.performAndWait {
            for (title, stars) in [("a", Int16(1)), ("b", 4), ("c", 5)] {
                let note = Note(context: context)
                note.title = title
                note.stars = stars
            }
            try context.save()
            var request = Note.fetchRequest()
            request.predicate = #Predicate { $0.stars > 3 }
            request.sortDescriptors = [SortDescriptor(\.title, order: .reverse)]
            let notes: [Note] = try context.fetch(request)
            #expect(notes.map(\.title) == ["c", "b"])
        }
    }
}
