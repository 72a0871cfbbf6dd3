import CSQLite
import Foundation
import ManagedStore

/// The students of the many-to-many benchmark, each in `links` courses.
final class BenchStudent: ManagedObject {
    @Attribute var name: String
    @Relationship var courses: Set<BenchCourse>
}

final class BenchCourse: ManagedObject {
    @Attribute var title: String
    @Relationship var students: Set<BenchStudent>
}

/// Many-to-many prefetching: every student with its courses, through a fetch that prefetches
/// `courses` and reads each member's title, beside the same graph read by one hand-written SQL
/// join into plain Swift values. The store (`owners` students, `links` courses each, out of
/// `owners / 10` courses) is made once and kept.
enum ManyToManyBenchmark {
    static let model = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Student", managedObjectClass: BenchStudent.self,
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [.toMany("courses", destination: "Course", inverse: "students")]),
        EntityDescription(
            name: "Course", managedObjectClass: BenchCourse.self,
            attributes: [AttributeDescription(name: "title", type: .string)],
            relationships: [.toMany("students", destination: "Student", inverse: "courses")]),
    ])

    static func run(storeURL: URL, owners: Int, links: Int, sqlFirst: Bool) throws -> [String: Double] {
        let container = PersistentContainer(name: "bench", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: storeURL)]
        try container.loadPersistentStores()
        try fill(container, owners: owners, links: links)

        var objects = (seconds: 0.0, checksum: 0), sql = (seconds: 0.0, checksum: 0)
        for useSQL in sqlFirst ? [true, false] : [false, true] {
            if useSQL {
                sql = try timed { try handWrittenJoin(storeURL) }
            } else {
                objects = try timed { try prefetched(container) }
            }
        }
        guard objects.checksum == sql.checksum else {
            throw BenchmarkError(
                "the prefetch read \(objects.checksum) title characters, the SQL join \(sql.checksum)")
        }
        return [
            "objects_seconds": objects.seconds, "sql_seconds": sql.seconds, "links": Double(owners * links),
        ]
    }

    /// Makes the store's students and courses, once.
    private static func fill(_ container: PersistentContainer, owners: Int, links: Int) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            guard try context.count(for: FetchRequest<BenchStudent>()) == 0 else { return }
            let courses = (0..<max(links, owners / 10)).map { index in
                let course = BenchCourse(context: context)
                course.title = "Course \(index)"
                return course
            }
            for index in 0..<owners {
                let student = BenchStudent(context: context)
                student.name = "Student \(index)"
                student.courses = Set((0..<links).map { courses[(index * 7 + $0 * 13) % courses.count] })
                if index % 1_000 == 999 { try context.save() }
            }
            try context.save()
        }
    }

    private static func timed(_ body: () throws -> Int) throws -> (seconds: Double, checksum: Int) {
        let start = ContinuousClock.now
        let checksum = try body()
        let elapsed = ContinuousClock.now - start
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, checksum)
    }

    /// Every student and its courses' titles, through a new context's prefetching fetch.
    private static func prefetched(_ container: PersistentContainer) throws -> Int {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            var request = FetchRequest<BenchStudent>()
            request.relationshipKeyPathsForPrefetching = ["courses"]
            var characters = 0
            for student in try context.fetch(request) {
                characters += student.name.utf8.count
                for course in student.courses { characters += course.title.utf8.count }
            }
            return characters
        }
    }

    /// The same graph by one SQL join, into a dictionary of students and their course titles.
    private static func handWrittenJoin(_ url: URL) throws -> Int {
        var database: OpaquePointer?
        guard sqlite3_open_v2(url.path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw BenchmarkError("cannot open \(url.path)")
        }
        defer { sqlite3_close(database) }
        var statement: OpaquePointer?
        let sql = """
            SELECT s.Z_PK, s.name, c.Z_PK, c.title FROM Student s \
            LEFT JOIN Z_Course_students j ON j.Z_MEMBER = s.Z_PK LEFT JOIN Course c ON c.Z_PK = j.Z_OWNER
            """
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchmarkError(String(cString: sqlite3_errmsg(database)))
        }
        defer { sqlite3_finalize(statement) }
        struct Row {
            var name: String
            var courses: [Int64: String]
        }
        var students: [Int64: Row] = [:]
        var titles: [Int64: String] = [:]
        while sqlite3_step(statement) == SQLITE_ROW {
            let key = sqlite3_column_int64(statement, 0)
            if students[key] == nil {
                students[key] = Row(name: String(cString: sqlite3_column_text(statement, 1)), courses: [:])
            }
            guard sqlite3_column_type(statement, 2) != SQLITE_NULL else { continue }
            let course = sqlite3_column_int64(statement, 2)
            let title =
                titles[course]
                ?? {
                    let text = String(cString: sqlite3_column_text(statement, 3))
                    titles[course] = text
                    return text
                }()
            students[key]!.courses[course] = title
        }
        return students.values.reduce(0) { sum, row in
            sum + row.name.utf8.count + row.courses.values.reduce(0) { $0 + $1.utf8.count }
        }
    }
}
