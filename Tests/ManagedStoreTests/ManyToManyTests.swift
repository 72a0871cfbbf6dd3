import CSQLite
import Foundation
import ManagedStore
import TestSupport
import Testing

final class Student: ManagedObject {
    @Attribute var name: String
    @Relationship var courses: Set<Course>
}

final class Course: ManagedObject {
    @Attribute var title: String
    @Relationship var students: Set<Student>
    @Relationship var tags: Set<Topic>
}

final class Topic: ManagedObject {
    @Attribute var label: String
    @Relationship var courses: Set<Course>
}

extension Student {
    static func named(_ name: String, in context: ManagedObjectContext) -> Student {
        let student = Student(context: context)
        student.name = name
        return student
    }
}

extension Course {
    static func named(_ title: String, in context: ManagedObjectContext) -> Course {
        let course = Course(context: context)
        course.title = title
        return course
    }
}

extension Topic {
    static func named(_ label: String, in context: ManagedObjectContext) -> Topic {
        let topic = Topic(context: context)
        topic.label = label
        return topic
    }
}

/// Two many-to-many pairs, with every delete rule on some side: a student leaves its courses
/// (nullify); a course takes its students with it (cascade) and leaves its topics (nullify); a topic
/// may not go while it tags a course (deny). "Course.students" sorts before "Student.courses",
/// so the join table is the course's side and the student reads it from the other column.
enum SchoolModel {
    static func entities(
        courseTags: Bool = true, studentCoursesName: String = "courses", renaming: String? = nil,
        courseName: String = "Course"
    ) -> [EntityDescription] {
        [
            EntityDescription(
                name: "Student", managedObjectClass: Student.self,
                attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [
                    .toMany(
                        studentCoursesName, destination: courseName, inverse: "students", deleteRule: .nullify,
                        renamingIdentifier: renaming)
                ], uniquenessConstraints: [["name"]]),
            EntityDescription(
                name: courseName, managedObjectClass: Course.self,
                attributes: [AttributeDescription(name: "title", type: .string)],
                relationships: [
                    .toMany("students", destination: "Student", inverse: studentCoursesName, deleteRule: .cascade)
                ]
                    + (courseTags
                        ? [.toMany("tags", destination: "Topic", inverse: "courses", deleteRule: .nullify)] : []),
                uniquenessConstraints: [["title"]], renamingIdentifier: courseName == "Course" ? nil : "Course"),
            EntityDescription(
                name: "Topic", managedObjectClass: Topic.self,
                attributes: [AttributeDescription(name: "label", type: .string)],
                relationships: courseTags
                    ? [.toMany("courses", destination: courseName, inverse: "tags", deleteRule: .deny)] : [],
                uniquenessConstraints: [["label"]]),
        ]
    }

    static let model = ManagedObjectModel(entities: entities())
}

/// Many-to-many relationships as the Core Data Programming Guide describes them ("Creating
/// Managed Object Relationships", Many-to-Many Relationships): "You define a many-to-many
/// relationship using two to-many relationships … You then set each to be the inverse of the
/// other", and with an SQLite store "Core Data automatically creates the intermediate join
/// table". Changing either side changes the other ("Core Data uses this information to ensure
/// the consistency of the object graph if a change is made", Inverse Relationships); the delete
/// rules apply per side (NSDeleteRule).
@Suite struct ManyToManyTests {
    @Test func eitherSideChangesTheOtherAndBothAreUpdated() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "School", model: SchoolModel.model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let ann = Student.named("Ann", in: context)
            let bob = Student.named("Bob", in: context)
            let math = Course.named("Math", in: context)
            let art = Course.named("Art", in: context)
            ann.courses = [math, art]
            math.students.insert(bob)
            #expect(math.students == [ann, bob])
            #expect(art.students == [ann])
            #expect(bob.courses == [math])
            try context.save()

            art.students.remove(ann)
            #expect(ann.courses == [math], "removing on one side removes on the other")
            // Core Data: a relationship change makes both objects updated (NSManagedObject.isUpdated).
            #expect(ann.isUpdated && art.isUpdated)
            #expect(!bob.isUpdated && !math.isUpdated)
            try context.save()
            #expect(!ann.isUpdated && !art.isUpdated)
        }
        // A context that never saw them reads the store's join table.
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let students = try reader.fetch(FetchRequest<Student>(sortBy: [SortDescriptor(\.name)]))
            #expect(students.map { $0.courses.map(\.title).sorted() } == [["Math"], ["Math"]])
            let art = try reader.fetch(FetchRequest<Course>(predicate: #Predicate { $0.title == "Art" }))[0]
            #expect(art.students.isEmpty)
        }
        // The join table: one row per link, on the sorted-first side's table.
        let rows = try sqliteRows(dir.file("School.sqlite"), "SELECT COUNT(*) FROM Z_Course_students")
        #expect(rows == [["2"]])
    }

    @Test func deleteRulesApplyOnEachSide() throws {
        let container = try makeContainer(in: nil, name: "School", model: SchoolModel.model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let ann = Student.named("Ann", in: context)
            let bob = Student.named("Bob", in: context)
            let math = Course.named("Math", in: context)
            let art = Course.named("Art", in: context)
            let hard = Topic.named("hard", in: context)
            ann.courses = [math, art]
            bob.courses = [art]
            math.tags = [hard]
            try context.save()

            // Nullify: a deleted student leaves its courses at once; the courses are updated.
            context.delete(bob)
            #expect(art.students == [ann])
            #expect(art.isUpdated)
            try context.save()

            // Deny: a tag that still tags a course refuses the save.
            context.delete(hard)
            #expect(throws: ManagedStoreError.self) { try context.save() }
            context.rollback()
            #expect(math.tags == [hard])

            // Cascade: a deleted course deletes its students; nullify on the tag's side.
            context.delete(math)
            #expect(ann.isDeleted)
            #expect(hard.courses.isEmpty)
            try context.save()
            #expect(try context.count(for: FetchRequest<Student>()) == 0)
            context.delete(hard)
            try context.save()
        }
    }

    @Test func predicatesTestMembersAndCounts() throws {
        let container = try makeContainer(in: nil, name: "School", model: SchoolModel.model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let names = ["Ann", "Bob", "Cid"]
            let students = names.map { name in
                let student = Student(context: context)
                student.name = name
                return student
            }
            let math = Course.named("Math", in: context)
            let art = Course.named("Art", in: context)
            math.students = Set(students)
            art.students = [students[0]]
            try context.save()

            let big = try context.fetch(FetchRequest<Course>(predicate: #Predicate { $0.students.count >= 2 }))
            #expect(big.map(\.title) == ["Math"])
            let withBob = try context.fetch(
                FetchRequest<Course>(
                    predicate: #Predicate { $0.students.contains { $0.name == "Bob" } },
                    sortBy: [SortDescriptor(\.title)]))
            #expect(withBob.map(\.title) == ["Math"])
            let withAnn = try context.fetch(
                FetchRequest<Student>(
                    predicate: #Predicate { $0.courses.contains { $0.title == "Art" } },
                    sortBy: [SortDescriptor(\.name)]
                ))
            #expect(withAnn.map(\.name) == ["Ann"])
            let loners = try context.fetch(
                FetchRequest<Student>(predicate: #Predicate { $0.courses.count == 1 }, sortBy: [SortDescriptor(\.name)])
            )
            #expect(loners.map(\.name) == ["Bob", "Cid"])
        }
    }

    /// `relationshipKeyPathsForPrefetching` on a many-to-many relationship loads every
    /// member in the fetch: no relationship is a fault after it (NSFetchRequest).
    @Test func prefetchingLoadsEveryMember() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "School", model: SchoolModel.model)
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            let courses = (0..<4).map { index in
                let course = Course(context: writer)
                course.title = "C\(index)"
                return course
            }
            for index in 0..<10 {
                let student = Student(context: writer)
                student.name = "S\(index)"
                student.courses = Set(courses.enumerated().filter { $0.offset <= index % 4 }.map(\.element))
            }
            try writer.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            var request = FetchRequest<Student>(sortBy: [SortDescriptor(\.name)])
            request.relationshipKeyPathsForPrefetching = ["courses"]
            let students = try reader.fetch(request)
            #expect(students.allSatisfy { !$0.hasFault(forRelationshipNamed: "courses") })
            #expect(students.map(\.courses.count) == (0..<10).map { $0 % 4 + 1 })
            #expect(students[3].courses.map(\.title).sorted() == ["C0", "C1", "C2", "C3"])
            #expect(
                Set(students[1].objectIDs(forRelationshipNamed: "courses")) == Set(students[1].courses.map(\.objectID)))
        }
    }

    /// A batch delete removes the deleted rows' links: the other side's objects lose them
    /// (NSBatchDeleteRequest: "the delete rules … are applied": nullify here), and the
    /// history lists those objects as updated in the relationship.
    @Test func aBatchDeleteRemovesTheLinksAndTheHistorySaysWhom() throws {
        let dir = TemporaryDirectory()
        let container = try PersistentHistoryTests.container(dir.file("School.sqlite"), model: SchoolModel.model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let ann = Student.named("Ann", in: context)
            let bob = Student.named("Bob", in: context)
            let math = Course.named("Math", in: context)
            math.students = [ann, bob]
            try context.save()
            let token = try container.persistentStoreCoordinator.currentPersistentHistoryToken()

            var request = BatchDeleteRequest(FetchRequest<Student>(predicate: #Predicate { $0.name == "Ann" }))
            request.resultType = .objectIDs
            #expect(try context.execute(request).objectIDs?.count == 1)
            context.refreshAllObjects()
            #expect(math.students.map(\.name) == ["Bob"])

            let transactions = try PersistentHistoryTests.history(context, after: token)
            let updates = transactions.flatMap { $0.changes ?? [] }.filter { $0.changeType == .update }
            #expect(updates.map(\.changedObjectID) == [math.objectID])
            #expect(updates.first?.updatedProperties == ["students"])
        }
        #expect(try sqliteRows(dir.file("School.sqlite"), "SELECT COUNT(*) FROM Z_Course_students") == [["1"]])
    }

    /// The history records a link change on both objects, each with its side's relationship
    /// (NSPersistentHistoryChange.updatedProperties).
    @Test func theHistoryRecordsTheChangeOnEitherSide() throws {
        let dir = TemporaryDirectory()
        let container = try PersistentHistoryTests.container(dir.file("School.sqlite"), model: SchoolModel.model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let ann = Student.named("Ann", in: context)
            let math = Course.named("Math", in: context)
            try context.save()
            let token = try container.persistentStoreCoordinator.currentPersistentHistoryToken()
            ann.courses.insert(math)
            try context.save()
            let changes = try PersistentHistoryTests.history(context, after: token).flatMap { $0.changes ?? [] }
            let byObject = Dictionary(uniqueKeysWithValues: changes.map { ($0.changedObjectID, $0) })
            #expect(byObject[ann.objectID]?.changeType == .update)
            #expect(byObject[ann.objectID]?.updatedProperties == ["courses"])
            #expect(byObject[math.objectID]?.updatedProperties == ["students"])
        }
    }

    /// A child context's links reach its parent on the child's save, and the store on the
    /// parent's; another context merging the save sees them.
    @Test func aChildsLinksReachTheParentAndAMergingContext() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "School", model: SchoolModel.model)
        let parent = container.newBackgroundContext()
        let (annID, mathID) = try parent.performAndWait { () throws -> (ManagedObjectID, ManagedObjectID) in
            let ann = Student(context: parent)
            ann.name = "Ann"
            let math = Course(context: parent)
            math.title = "Math"
            try parent.save()
            return (ann.objectID, math.objectID)
        }
        let viewer = container.newBackgroundContext()
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveNotification, object: parent, queue: nil
        ) { note in
            guard let changes = ContextSaveChanges(note) else { return }
            viewer.performAndWait { viewer.mergeChanges(fromContextDidSave: changes) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let before = viewer.performAndWait { (viewer.object(with: mathID) as! Course).students.count }
        #expect(before == 0)

        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        try child.performAndWait {
            let ann = child.object(with: annID) as! Student
            let art = Course(context: child)
            art.title = "Art"
            ann.courses = [child.object(with: mathID) as! Course, art]
            try child.save()
        }
        let inParent = parent.performAndWait {
            ((parent.object(with: annID) as! Student).courses.map(\.title).sorted(), parent.hasChanges)
        }
        #expect(inParent.0 == ["Art", "Math"])
        #expect(inParent.1, "the parent holds the links unsaved")
        try parent.performAndWait { try parent.save() }
        let seen = viewer.performAndWait { (viewer.object(with: mathID) as! Course).students.map(\.name) }
        #expect(seen == ["Ann"])
    }

    /// Lightweight migration adds a many-to-many relationship (an empty join table), renames
    /// one by its renaming identifier keeping the links, and removes one (its table goes).
    @Test func migrationAddsRenamesAndRemovesAManyToMany() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("School.sqlite")
        func open(_ entities: [EntityDescription]) throws -> PersistentContainer {
            let container = PersistentContainer(
                name: "School", managedObjectModel: ManagedObjectModel(entities: entities))
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
            try container.loadPersistentStores()
            return container
        }
        do {
            let container = try open(SchoolModel.entities(courseTags: false))
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let ann = Student.named("Ann", in: context)
                let math = Course.named("Math", in: context)
                ann.courses = [math]
                try context.save()
            }
        }
        #expect(try sqliteRows(url, "SELECT name FROM sqlite_master WHERE name = 'Z_Course_tags'") == [])
        do {
            // Adds Course.tags/Topic.courses.
            let container = try open(SchoolModel.entities(courseTags: true))
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let math = try context.fetch(FetchRequest<Course>())[0]
                #expect(math.tags.isEmpty && math.students.count == 1)
                let tag = Topic.named("hard", in: context)
                math.tags = [tag]
                try context.save()
            }
        }
        do {
            // Renames Student.courses to Student.classes: "Course.students" still sorts first,
            // so the table keeps its name; the links stay.
            let container = try open(SchoolModel.entities(studentCoursesName: "classes", renaming: "courses"))
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let ann = try context.fetch(FetchRequest<Student>())[0]
                #expect((ann.value(forKey: "classes") as? Set<ManagedObject>)?.count == 1)
            }
        }
        do {
            // Removes Course.tags: its table goes.
            let container = try open(SchoolModel.entities(courseTags: false, studentCoursesName: "classes"))
            _ = container
        }
        #expect(try sqliteRows(url, "SELECT name FROM sqlite_master WHERE name = 'Z_Course_tags'") == [])
        #expect(try sqliteRows(url, "SELECT COUNT(*) FROM Z_Course_students") == [["1"]])
        do {
            // Renames entity Course to Unit: "Student.classes" sorts before "Unit.students"
            // now, so the links move to Z_Student_classes with their columns swapped.
            let container = try open(
                SchoolModel.entities(courseTags: false, studentCoursesName: "classes", courseName: "Unit"))
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let unit = try context.fetch(FetchRequest<Course>())[0]
                #expect(unit.students.map(\.name) == ["Ann"])
                let ann = try context.fetch(FetchRequest<Student>())[0]
                #expect((ann.value(forKey: "classes") as? Set<ManagedObject>) == [unit])
            }
        }
        #expect(
            try sqliteRows(
                url,
                "SELECT s.name, u.title FROM Z_Student_classes j JOIN Student s ON s.Z_PK = j.Z_OWNER JOIN Unit u ON u.Z_PK = j.Z_MEMBER"
            ) == [["Ann", "Math"]])
        #expect(try sqliteRows(url, "SELECT name FROM sqlite_master WHERE name = 'Z_Course_students'") == [])
    }

    /// A link to an object another context deleted meanwhile is not stored when the merge
    /// policy lets the deletion stand (the deletion took the object's links with it; a join
    /// row to nothing would count in `@count`).
    @Test func aLinkToAnObjectDeletedMeanwhileIsNotStored() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "School", model: SchoolModel.model)
        let first = container.newBackgroundContext()
        first.mergePolicy = .mergeByPropertyStoreTrump
        let (ann, math) = try first.performAndWait { () throws -> (Student, Course) in
            let ann = Student.named("Ann", in: first)
            let math = Course.named("Math", in: first)
            try first.save()
            return (ann, math)
        }
        let second = container.newBackgroundContext()
        try second.performAndWait {
            second.delete(try second.existingObject(with: math.objectID))
            try second.save()
        }
        try first.performAndWait {
            ann.courses.insert(math)
            try first.save()
        }
        #expect(try sqliteRows(dir.file("School.sqlite"), "SELECT COUNT(*) FROM Z_Course_students") == [["0"]])
    }
}

/// The rows a query gives, each as text, read with SQLite directly.
func sqliteRows(_ url: URL, _ sql: String) throws -> [[String]] {
    var database: OpaquePointer?
    guard sqlite3_open_v2(url.path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
        throw CocoaError(.fileReadUnknown)
    }
    defer { sqlite3_close(database) }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
        throw CocoaError(.fileReadCorruptFile)
    }
    defer { sqlite3_finalize(statement) }
    var rows: [[String]] = []
    while sqlite3_step(statement) == SQLITE_ROW {
        rows.append(
            (0..<sqlite3_column_count(statement)).map { column in
                sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL"
            })
    }
    return rows
}
