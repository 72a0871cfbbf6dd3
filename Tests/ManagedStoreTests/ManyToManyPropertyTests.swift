import Foundation
import ManagedStore
import TestSupport
import Testing

/// Property: after any seeded sequence of inserts, links and unlinks (through either side, one
/// member or a whole set at a time), deletions under each delete rule, saves, rollbacks and a
/// child context's saves into its parent, every context sees the graph the test keeps itself:
/// the editing context its unsaved graph, a sibling that merges the saves and a new context the
/// saved graph, and the store's join tables (read with SQL) the saved links.
@Suite struct ManyToManyPropertyTests {
    /// The graph the test keeps: objects by their unique names, links as name pairs.
    struct Graph: Equatable {
        var students = Set<String>()
        var courses = Set<String>()
        var topics = Set<String>()
        /// (student, course)
        var enrolments = Set<[String]>()
        /// (course, topic)
        var taggings = Set<[String]>()

        mutating func deleteStudent(_ name: String) {
            students.remove(name)
            enrolments = enrolments.filter { $0[0] != name }
        }

        /// What this graph has that `expected` lacks, and the other way round.
        func difference(from expected: Graph) -> String {
            func sides<T: Hashable>(_ name: String, _ seen: Set<T>, _ wanted: Set<T>) -> String? {
                seen == wanted
                    ? nil : "\(name): extra \(seen.subtracting(wanted)), missing \(wanted.subtracting(seen))"
            }
            return [
                sides("students", students, expected.students), sides("courses", courses, expected.courses),
                sides("topics", topics, expected.topics), sides("enrolments", enrolments, expected.enrolments),
                sides("taggings", taggings, expected.taggings),
            ].compactMap { $0 }.joined(separator: "; ")
        }

        /// Cascade to the students; nullify on the topics' side.
        mutating func deleteCourse(_ name: String) {
            for pair in enrolments where pair[1] == name { deleteStudent(pair[0]) }
            courses.remove(name)
            enrolments = enrolments.filter { $0[1] != name }
            taggings = taggings.filter { $0[0] != name }
        }
    }

    @Test func everyContextAndTheStoreAgreeWithTheKeptGraph() throws {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "")
            ?? UInt64(Date().timeIntervalSince1970)
        var random = SeededGenerator(seed: seed)
        var steps = 0
        for round in 0..<6 {
            let dir = TemporaryDirectory()
            let container = try makeContainer(in: dir, name: "School", model: SchoolModel.model)
            let editor = container.newBackgroundContext()
            let sibling = container.newBackgroundContext()
            let observer = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveNotification, object: editor, queue: nil
            ) { note in
                guard let changes = ContextSaveChanges(note) else { return }
                sibling.performAndWait { sibling.mergeChanges(fromContextDidSave: changes) }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            var saved = Graph(), pending = Graph()
            var child: ManagedObjectContext?
            var childGraph = Graph(), childBase = Graph()
            var serial = 0
            var log: [String] = []

            for step in 0..<70 {
                steps += 1
                let useChild = child != nil || Int.random(in: 0..<6, using: &random) == 0
                if useChild && child == nil {
                    let made = ManagedObjectContext(concurrencyType: .privateQueue)
                    made.parent = editor
                    child = made
                    childGraph = pending
                    childBase = pending
                }
                let context = useChild ? child! : editor
                var graph = useChild ? childGraph : pending
                let where_ =
                    "seed \(seed), round \(round), step \(step) (\(useChild ? "child" : "editor")); ops: \(log.suffix(40))"
                let op = Int.random(in: 0..<100, using: &random)
                log.append(useChild ? "child:" : "editor:")
                var saveExpected: Bool? = nil
                try context.performAndWait {
                    let students = try context.fetch(FetchRequest<Student>(sortBy: [SortDescriptor(\.name)]))
                    let courses = try context.fetch(FetchRequest<Course>(sortBy: [SortDescriptor(\.title)]))
                    let topics = try context.fetch(FetchRequest<Topic>(sortBy: [SortDescriptor(\.label)]))
                    switch op {
                    case 0..<18:
                        serial += 1
                        switch serial % 3 {
                        case 0:
                            let student = Student(context: context)
                            student.name = "s\(serial)"
                            graph.students.insert(student.name)
                        case 1:
                            let course = Course(context: context)
                            course.title = "c\(serial)"
                            graph.courses.insert(course.title)
                        default:
                            let topic = Topic(context: context)
                            topic.label = "t\(serial)"
                            graph.topics.insert(topic.label)
                        }
                        log.append("insert \(serial)")
                    case 18..<45 where !students.isEmpty && !courses.isEmpty:
                        let student = students.randomElement(using: &random)!
                        let course = courses.randomElement(using: &random)!
                        let link = Bool.random(using: &random)
                        switch (link, Bool.random(using: &random)) {
                        case (true, true): student.courses.insert(course)
                        case (true, false): course.students.insert(student)
                        case (false, true): student.courses.remove(course)
                        case (false, false): course.students.remove(student)
                        }
                        if link {
                            graph.enrolments.insert([student.name, course.title])
                        } else {
                            graph.enrolments.remove([student.name, course.title])
                        }
                        log.append("\(link ? "link" : "unlink") \(student.name) \(course.title)")
                    case 45..<55 where !students.isEmpty:
                        let student = students.randomElement(using: &random)!
                        let chosen = courses.filter { _ in Bool.random(using: &random) }
                        student.courses = Set(chosen)
                        graph.enrolments = graph.enrolments.filter { $0[0] != student.name }
                        for course in chosen { graph.enrolments.insert([student.name, course.title]) }
                        log.append("set \(student.name).courses = \(chosen.map(\.title))")
                    case 55..<68 where !courses.isEmpty && !topics.isEmpty:
                        let course = courses.randomElement(using: &random)!
                        let topic = topics.randomElement(using: &random)!
                        if Bool.random(using: &random) {
                            topic.courses.insert(course)
                            graph.taggings.insert([course.title, topic.label])
                            log.append("tag \(course.title) \(topic.label)")
                        } else {
                            course.tags.remove(topic)
                            graph.taggings.remove([course.title, topic.label])
                            log.append("untag \(course.title) \(topic.label)")
                        }
                    case 68..<74 where !students.isEmpty:
                        let student = students.randomElement(using: &random)!
                        graph.deleteStudent(student.name)
                        log.append("delete \(student.name)")
                        context.delete(student)
                    case 74..<79 where !courses.isEmpty:
                        let course = courses.randomElement(using: &random)!
                        graph.deleteCourse(course.title)
                        log.append("delete \(course.title)")
                        context.delete(course)
                    case 79..<84 where !topics.isEmpty:
                        let topic = topics.randomElement(using: &random)!
                        log.append("delete \(topic.label)")
                        // Deny: a topic that still tags a course refuses the save, unless it
                        // was never saved (an inserted object deleted is dropped, as in Core
                        // Data, whose deny rule is checked for deleted objects only).
                        let existing = (useChild ? childBase : saved).topics.contains(topic.label)
                        let denied = existing && graph.taggings.contains { $0[1] == topic.label }
                        context.delete(topic)
                        if denied {
                            saveExpected = false
                        } else {
                            graph.topics.remove(topic.label)
                            graph.taggings = graph.taggings.filter { $0[1] != topic.label }
                        }
                    case 84..<96:
                        saveExpected = true
                    case 96..<100:
                        context.rollback()
                        graph = useChild ? childBase : saved
                        log.append("rollback")
                    default:
                        break
                    }
                    if let expected = saveExpected {
                        do {
                            try context.save()
                            #expect(expected, "the save should have been denied: \(where_)")
                            log.append("save")
                        } catch ManagedStoreError.validationFailed(let failures) {
                            #expect(!expected, "\(failures): \(where_)")
                            #expect(failures.contains { $0.attribute == "courses" }, "\(failures): \(where_)")
                            context.rollback()
                            graph = useChild ? childBase : saved
                            log.append("denied, rollback")
                        }
                    }
                    let seen = try Self.graph(in: context)
                    #expect(seen == graph, "the editing context: \(where_)\n\(seen.difference(from: graph))")
                }
                if useChild {
                    childGraph = graph
                    if saveExpected == true && log.last == "save" {
                        pending = graph
                        childBase = graph
                        let seen = try editor.performAndWait { try Self.graph(in: editor) }
                        #expect(seen == pending, "the parent: \(where_)\n\(seen.difference(from: pending))")
                    }
                } else {
                    pending = graph
                    if saveExpected == true && log.last == "save" {
                        saved = graph
                        child = nil
                        #expect(
                            try sibling.performAndWait { try Self.graph(in: sibling) } == saved,
                            "the sibling: \(where_)")
                        let fresh = container.newBackgroundContext()
                        #expect(
                            try fresh.performAndWait { try Self.graph(in: fresh) } == saved, "a new context: \(where_)")
                        #expect(try Self.storedLinks(dir.file("School.sqlite")) == saved, "the join tables: \(where_)")
                    }
                }
                if useChild && Int.random(in: 0..<5, using: &random) == 0 {
                    child = nil  // the child is dropped
                    log.append("drop the child")
                }
            }
        }
        #expect(steps == 420)
    }

    /// The graph a context sees: its objects, with each side of each link read separately (so
    /// that a one-sided link shows as a difference).
    static func graph(in context: ManagedObjectContext) throws -> Graph {
        var graph = Graph()
        for student in try context.fetch(FetchRequest<Student>()) {
            graph.students.insert(student.name)
            for course in student.courses { graph.enrolments.insert([student.name, course.title]) }
        }
        var fromCourses = Set<[String]>()
        for course in try context.fetch(FetchRequest<Course>()) {
            graph.courses.insert(course.title)
            for student in course.students { fromCourses.insert([student.name, course.title]) }
            for topic in course.tags { graph.taggings.insert([course.title, topic.label]) }
        }
        var fromTopics = Set<[String]>()
        for topic in try context.fetch(FetchRequest<Topic>()) {
            graph.topics.insert(topic.label)
            for course in topic.courses { fromTopics.insert([course.title, topic.label]) }
        }
        if fromCourses != graph.enrolments { graph.enrolments.insert(["one-sided", "\(fromCourses)"]) }
        if fromTopics != graph.taggings { graph.taggings.insert(["one-sided", "\(fromTopics)"]) }
        return graph
    }

    /// The saved graph as the store's tables hold it, read with SQL.
    static func storedLinks(_ url: URL) throws -> Graph {
        var graph = Graph()
        graph.students = Set(try sqliteRows(url, "SELECT name FROM Student").map { $0[0] })
        graph.courses = Set(try sqliteRows(url, "SELECT title FROM Course").map { $0[0] })
        graph.topics = Set(try sqliteRows(url, "SELECT label FROM Topic").map { $0[0] })
        graph.enrolments = Set(
            try sqliteRows(
                url,
                "SELECT s.name, c.title FROM Z_Course_students j JOIN Student s ON s.Z_PK = j.Z_MEMBER JOIN Course c ON c.Z_PK = j.Z_OWNER"
            ))
        graph.taggings = Set(
            try sqliteRows(
                url,
                "SELECT c.title, t.label FROM Z_Course_tags j JOIN Course c ON c.Z_PK = j.Z_OWNER JOIN Topic t ON t.Z_PK = j.Z_MEMBER"
            ))
        let dangling = try sqliteRows(
            url,
            "SELECT COUNT(*) FROM Z_Course_students j WHERE NOT EXISTS (SELECT 1 FROM Student WHERE Z_PK = j.Z_MEMBER) OR NOT EXISTS (SELECT 1 FROM Course WHERE Z_PK = j.Z_OWNER)"
        )
        if dangling != [["0"]] { graph.enrolments.insert(["dangling", "\(dangling)"]) }
        return graph
    }
}
