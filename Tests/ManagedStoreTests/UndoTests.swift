import Foundation
import ManagedStore
import TestSupport
import Testing

/// Undo as Core Data documents it for a context: `undoManager` "The default value is nil";
/// `processPendingChanges()` "causes changes to registered managed objects to be recorded with
/// the undo manager"; `undo()` reverses "the latest uncommitted changes applied to objects in
/// the object graph"; `rollback()` "removes everything from the undo stack"
/// (developer.apple.com, NSManagedObjectContext); and Foundation's UndoManager's grouping by
/// event, undo and redo stacks.
@Suite struct UndoTests {
    @Test func everyContextHasNoUndoManagerByDefault() throws {
        let container = try makeContainer(in: nil, name: "School", model: SchoolModel.model)
        #expect(container.newBackgroundContext().undoManager == nil)
        #expect(ManagedObjectContext(concurrencyType: .privateQueue).undoManager == nil)
    }

    @Test func undoAndRedoInsertsUpdatesDeletesAndLinksEventByEvent() throws {
        let container = try makeContainer(in: nil, name: "School", model: SchoolModel.model)
        let context = container.newBackgroundContext()
        let (ann, math) = try context.performAndWait { () throws -> (Student, Course) in
            let ann = Student.named("Ann", in: context)
            let math = Course.named("Math", in: context)
            try context.save()
            context.undoManager = UndoManager()
            return (ann, math)
        }
        let art = context.performAndWait { Course.named("Art", in: context) }  // event 1
        context.performAndWait { ann.name = "Anna" }  // event 2
        context.performAndWait { ann.courses = [math, art] }  // event 3
        context.performAndWait { context.delete(math) }  // event 4: cascades to Anna
        try context.performAndWait { () throws -> Void in
            #expect(ann.isDeleted && math.isDeleted)
            context.undo()  // event 4
            #expect(!ann.isDeleted && !math.isDeleted)
            #expect(ann.courses == [math, art])
            context.undo()  // event 3
            #expect(ann.courses.isEmpty && math.students.isEmpty)
            context.undo()  // event 2
            #expect(ann.name == "Ann")
            context.undo()  // event 1
            #expect(art.managedObjectContext == nil)
            #expect(try context.count(for: FetchRequest<Course>()) == 1)
            #expect(!context.undoManager!.canUndo)
            #expect(!context.hasChanges || context.updatedObjects.allSatisfy { !$0.hasPersistentChangedValues })

            context.redo()
            #expect(art.managedObjectContext === context && art.isInserted)
            context.redo()
            #expect(ann.name == "Anna")
            context.redo()
            #expect(ann.courses == [math, art])
            context.redo()
            #expect(ann.isDeleted && math.isDeleted)
            #expect(!context.undoManager!.canRedo)
        }
    }

    /// `awakeFromInsert()`: "Invoked automatically by the Core Data framework when the receiver
    /// is first inserted into a managed object context" (developer.apple.com/documentation/
    /// coredata/nsmanagedobject/awakefrominsert()): first, so not again when a redo brings the
    /// insertion back.
    @Test func aRedoneInsertionDoesNotAwakeTheObjectAgain() throws {
        let container = try makeContainer(in: nil, name: "Memos", model: MemoModel.model)
        let context = container.newBackgroundContext()
        context.undoManager = UndoManager()
        let memo = context.performAndWait {
            let memo = Memo(context: context)
            memo.text = "one"
            return memo
        }
        context.performAndWait {
            #expect(memo.insertions == 1)
            context.undo()
            #expect(memo.managedObjectContext == nil)
            context.redo()
            #expect(memo.isInserted && memo.text == "one")
            #expect(memo.insertions == 1)
        }
    }

    /// With `groupsByEvent`, one event is one group; a group the program opens spans events,
    /// and holds what was changed before it closes, even in the event that closes it.
    @Test func aGroupIsAnEventOrWhatTheProgramGroups() throws {
        let container = try makeContainer(in: nil, name: "School", model: SchoolModel.model)
        let context = container.newBackgroundContext()
        let undo = UndoManager()
        let ann = context.performAndWait {
            context.undoManager = undo
            return Student.named("Ann", in: context)
        }
        context.performAndWait { undo.beginUndoGrouping() }
        context.performAndWait { ann.name = "B" }
        context.performAndWait { ann.name = "C" }
        context.performAndWait {
            // Within the group: a change made in this event, before the group closes, is in it
            // (closing records the pending changes first, as Foundation's checkpoint has Core
            // Data's context do).
            ann.name = "D"
            undo.endUndoGrouping()
            undo.setActionName("Rename twice")
            #expect(undo.undoActionName == "Rename twice")
            context.undo()
            #expect(ann.name == "Ann", "the three renames were one group")
            #expect(undo.redoActionName == "Rename twice")
            context.undo()
            #expect(ann.managedObjectContext == nil)
        }
    }

    /// Core Data: undo carries on across a save ("only rollback() and reset() clear it"), and an
    /// undo after a save leaves the context with changes to save; rollback and reset clear the
    /// stacks; with registration disabled, nothing is recorded.
    @Test func undoCarriesOnAcrossSavesAndRollbackAndResetClearTheStacks() throws {
        let container = try makeContainer(in: nil, name: "School", model: SchoolModel.model)
        let context = container.newBackgroundContext()
        let undo = UndoManager()
        let ann = context.performAndWait {
            context.undoManager = undo
            return Student.named("Ann", in: context)
        }
        try context.performAndWait {
            #expect(undo.canUndo)
            try context.save()
            #expect(undo.canUndo && !context.hasChanges)
            context.undo()
            #expect(ann.isDeleted && context.hasChanges, "the saved insertion, undone: a deletion to save")
            context.redo()
            #expect(!ann.isDeleted && !context.hasChanges)
        }
        context.performAndWait { ann.name = "B" }
        context.performAndWait {
            #expect(undo.canUndo)
            context.rollback()
            #expect(!undo.canUndo && ann.name == "Ann")
        }
        context.performAndWait {
            undo.disableUndoRegistration()
            ann.name = "C"
        }
        context.performAndWait {
            undo.enableUndoRegistration()
            #expect(!undo.canUndo)
        }
        context.performAndWait { ann.name = "D" }
        context.performAndWait {
            context.reset()
            #expect(!undo.canUndo)
        }
    }

    /// A child context's undo of a deletion it saved into its parent brings the object back;
    /// its next save takes it back into the parent, which undeletes it, or inserts it again
    /// when the parent had saved the deletion to the store too.
    @Test func aChildUndoesADeletionItSavedIntoItsParent() throws {
        for parentSavesBetween in [false, true] {
            let container = try makeContainer(in: nil, name: "School", model: SchoolModel.model)
            let parent = container.viewContext
            let ann = Student.named("Ann", in: parent)
            try parent.save()
            let child = ManagedObjectContext(concurrencyType: .mainQueue)
            child.parent = parent
            child.undoManager = UndoManager()
            let copy = try #require(child.existingObject(with: ann.objectID) as? Student)
            child.undoManager?.removeAllActions()
            child.delete(copy)
            child.processPendingChanges()
            try child.save()
            #expect(ann.isDeleted)
            if parentSavesBetween { try parent.save() }
            child.undo()
            #expect(!copy.isDeleted && child.hasChanges, "the saved deletion, undone: an insertion to save")
            try child.save()
            try parent.save()
            let reader = container.newBackgroundContext()
            let names = try reader.performAndWait { try reader.fetch(FetchRequest<Student>()).map(\.name) }
            #expect(names == ["Ann"], "parent saved between: \(parentSavesBetween)")
        }
    }

    /// Property: after seeded random edits, one event each (inserts, renames, links and
    /// unlinks on either side, whole sets, deletions with their cascades and nullifications),
    /// undoing step by step passes through every earlier state back to the saved one, redoing
    /// goes forward through them again, and a new edit after some undos forgets the redo stack.
    @Test func randomEditsUndoneStepByStepComeBackToTheSavedState() throws {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
        var random = SeededGenerator(seed: seed)
        for round in 0..<8 {
            let dir = TemporaryDirectory()
            let container = try makeContainer(in: dir, name: "School", model: SchoolModel.model)
            let context = container.newBackgroundContext()
            let undo = UndoManager()
            var serial = 0
            try context.performAndWait {
                for index in 0..<3 {
                    let student = Student.named("s\(index)", in: context)
                    let course = Course.named("c\(index)", in: context)
                    student.courses = [course]
                    course.tags = [Topic.named("t\(index)", in: context)]
                }
                try context.save()
                context.undoManager = undo
            }
            func state() throws -> ManyToManyPropertyTests.Graph {
                try context.performAndWait { try ManyToManyPropertyTests.graph(in: context) }
            }
            var states = [try state()]
            var log: [String] = []
            func edit() throws {
                serial += 1
                let op = Int.random(in: 0..<10, using: &random)
                let pick = UInt64.random(in: 0..<1000, using: &random)
                let label = try context.performAndWait { () throws -> String in
                    let students = try context.fetch(FetchRequest<Student>(sortBy: [SortDescriptor(\.name)]))
                    let courses = try context.fetch(FetchRequest<Course>(sortBy: [SortDescriptor(\.title)]))
                    let topics = try context.fetch(FetchRequest<Topic>(sortBy: [SortDescriptor(\.label)]))
                    func any<T>(_ list: [T], _ salt: UInt64 = 0) -> T? {
                        list.isEmpty ? nil : list[Int((pick &+ salt) % UInt64(list.count))]
                    }
                    switch op {
                    case 0: return "insert \(Student.named("s\(serial)-new", in: context).name)"
                    case 1: return "insert \(Course.named("c\(serial)-new", in: context).title)"
                    case 2:
                        guard let student = any(students) else { return "nothing" }
                        student.name = "s\(serial)-renamed"
                        return "rename to \(student.name)"
                    case 3:
                        guard let student = any(students), let course = any(courses, 7) else { return "nothing" }
                        if pick % 2 == 0 { student.courses.insert(course) } else { course.students.insert(student) }
                        return "link \(student.name) \(course.title)"
                    case 4:
                        guard let student = any(students), let course = any(courses, 7) else { return "nothing" }
                        if pick % 2 == 0 { student.courses.remove(course) } else { course.students.remove(student) }
                        return "unlink \(student.name) \(course.title)"
                    case 5:
                        guard let student = any(students) else { return "nothing" }
                        student.courses = Set(
                            courses.enumerated().filter { ($0.offset + Int(pick)) % 2 == 0 }.map(\.element))
                        return "set \(student.name).courses"
                    case 6:
                        guard let student = any(students) else { return "nothing" }
                        context.delete(student)
                        return "delete \(student.name)"
                    case 7:
                        guard let course = any(courses) else { return "nothing" }
                        context.delete(course)
                        return "delete \(course.title) (cascade)"
                    case 9:
                        try context.save()
                        return "save"
                    default:
                        guard let topic = any(topics), let course = any(courses, 3) else { return "nothing" }
                        topic.courses.insert(course)
                        return "tag \(course.title) \(topic.label)"
                    }
                }
                let now = try state()
                if now != states.last! {
                    states.append(now)
                    log.append(label)
                }
            }
            for _ in 0..<Int.random(in: 5..<20, using: &random) { try edit() }
            let context_ = "seed \(seed), round \(round), edits \(log)"
            // Back some steps, forward some, then a new edit (which forgets the redo stack).
            let back = Int.random(in: 0...(states.count - 1), using: &random)
            for step in 0..<back {
                context.performAndWait { context.undo() }
                let seen = try state(), wanted = states[states.count - 2 - step]
                #expect(seen == wanted, "undo \(step + 1): \(context_)\n\(seen.difference(from: wanted))")
            }
            let forward = Int.random(in: 0...back, using: &random)
            for step in 0..<forward {
                context.performAndWait { context.redo() }
                let seen = try state(), wanted = states[states.count - 1 - back + step + 1]
                #expect(seen == wanted, "redo \(step + 1): \(context_)\n\(seen.difference(from: wanted))")
            }
            states.removeLast(back - forward)
            let before = states.count
            try edit()
            if states.count > before {
                #expect(context.performAndWait { !undo.canRedo }, "a new edit forgets the redo stack: \(context_)")
            }
            // Then all the way back: the saved state, and nothing more to undo.
            for step in 0..<(states.count - 1) {
                context.performAndWait { context.undo() }
                let seen = try state(), wanted = states[states.count - 2 - step]
                #expect(seen == wanted, "final undo \(step + 1): \(context_)\n\(seen.difference(from: wanted))")
            }
            #expect(context.performAndWait { !undo.canUndo }, "\(context_)")
            #expect(try state() == states[0], "the first state: \(context_)")
            // Saves among the edits do not stop the undos; the state they come back to saves,
            // and another context reads it.
            try context.performAndWait { try context.save() }
            let reader = container.newBackgroundContext()
            let stored = try reader.performAndWait { try ManyToManyPropertyTests.graph(in: reader) }
            #expect(stored == states[0], "saved after the undos: \(context_)\n\(stored.difference(from: states[0]))")
        }
    }
}
