import Foundation
import ManagedStore
import Testing

/// A ledger that checks what spans its properties, as Core Data's documentation shows
/// (`validateForInsert`/`validateForUpdate` calling `super`, then an inter-property check), and
/// refuses its own deletion while locked.
final class Ledger: ManagedObject {
    @Attribute var opened: Date
    @Attribute var closed: Date?
    @Attribute var locked: Bool
    @Attribute var code: String
    /// What the fault hooks saw, in order.
    var hooks: [String] = []

    struct Locked: Error, LocalizedError {
        var errorDescription: String? { "the ledger is locked" }
    }

    override func validateForInsert() throws {
        try collecting(super.validateForInsert, datesInOrder)
    }
    override func validateForUpdate() throws {
        try collecting(super.validateForUpdate, datesInOrder)
    }
    override func validateForDelete() throws {
        try super.validateForDelete()
        if locked { throw Locked() }
    }
    override func validateValue(_ value: AttributeValue, forKey key: String) throws {
        if key == "code", case .string(let text) = value, text != text.uppercased() {
            throw ManagedStoreError.validationFailed([
                ValidationFailure(objectID: objectID, attribute: key, value: value, reason: "is not upper case")
            ])
        }
        try super.validateValue(value, forKey: key)
    }
    override func willTurnIntoFault() { hooks.append("will \(code)") }
    override func didTurnIntoFault() { hooks.append("did, fault \(isFault)") }

    private func datesInOrder() throws {
        if let closed, closed < opened {
            throw ManagedStoreError.validationFailed([
                ValidationFailure(
                    objectID: objectID, attribute: "closed", code: .dateTooSoon, value: .date(closed),
                    reason: "is before the ledger was opened")
            ])
        }
    }

    /// Runs every check and throws all their failures together, as Core Data's documentation
    /// combines them into one `NSValidationMultipleErrorsError`.
    private func collecting(_ checks: (() throws -> Void)...) throws {
        var failures: [ValidationFailure] = []
        for check in checks {
            do { try check() } catch ManagedStoreError.validationFailed(let found) { failures += found }
        }
        if !failures.isEmpty { throw ManagedStoreError.validationFailed(failures) }
    }
}

/// `validateForInsert`, `validateForUpdate`, `validateForDelete` and `validateValue(_:forKey:)`
/// overrides run in a save, their failures reported with the model's; and the fault hooks
/// around a refresh.
@MainActor @Suite struct ValidationOverrideTests {
    static let model = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Ledger", managedObjectClass: Ledger.self,
            attributes: [
                AttributeDescription(name: "opened", type: .date),
                AttributeDescription(name: "closed", type: .date, isOptional: true),
                AttributeDescription(name: "locked", type: .boolean, defaultValue: .boolean(false)),
                AttributeDescription(name: "code", type: .string, validationRules: [.maximumLength(4)]),
            ])
    ])

    static func failures(_ body: () throws -> Void) -> [String] {
        do {
            try body()
            return []
        } catch ManagedStoreError.validationFailed(let failures) {
            return failures.map { "\($0.attribute ?? "-") \($0.code.rawValue): \($0.reason)" }.sorted()
        } catch {
            return ["not a validation: \(error)"]
        }
    }

    @Test func theOverridesFailuresComeWithTheModelsAndTheSaveKeepsItsChanges() throws {
        let container = try makeContainer(in: nil, name: "Ledgers", model: Self.model)
        let context = container.viewContext
        let ledger = Ledger(context: context)
        ledger.opened = Date(timeIntervalSinceReferenceDate: 100)
        ledger.closed = Date(timeIntervalSinceReferenceDate: 50)
        ledger.code = "abcde"
        #expect(
            Self.failures { try context.save() } == [
                "closed 1640: is before the ledger was opened",
                "code 1550: is not upper case",
            ], "validateValue's override stops before super, so the length rule is not reached")
        ledger.code = "ABCDE"
        #expect(
            Self.failures { try context.save() } == [
                "closed 1640: is before the ledger was opened",
                "code 1660: is 5 long, longer than the maximum length, 4",
            ])
        #expect(context.insertedObjects.contains(ledger))
        ledger.closed = nil
        ledger.code = "ABCD"
        try context.save()

        ledger.closed = Date(timeIntervalSinceReferenceDate: 0)
        #expect(
            Self.failures { try context.save() } == ["closed 1640: is before the ledger was opened"], "on update too")
        ledger.closed = Date(timeIntervalSinceReferenceDate: 200)
        ledger.locked = true
        try context.save()

        context.delete(ledger)
        do {
            try context.save()
            Issue.record("a locked ledger was deleted")
        } catch let error as ManagedStoreError {
            guard case .validationFailed(let failures) = error else { Issue.record("\(error)"); return }
            #expect(error.validationErrorCode == .managedObjectValidation)
            #expect(failures.count == 1 && failures[0].attribute == nil)
            #expect(failures[0].underlyingError is Ledger.Locked)
            #expect("\(error)" == "the save failed validation: \(ledger.objectID): the ledger is locked")
        }
        #expect(ledger.isDeleted && context.hasChanges, "the deletion is still to be saved")
        context.rollback()
        ledger.locked = false
        try context.save()
        context.delete(ledger)
        try context.save()
        #expect(try context.count(for: FetchRequest<Ledger>()) == 0)
    }

    @Test func aRefreshToAFaultTellsTheObjectBeforeAndAfterOnce() throws {
        let container = try makeContainer(in: nil, name: "Ledgers", model: Self.model)
        let context = container.viewContext
        let ledger = Ledger(context: context)
        ledger.opened = .now
        ledger.code = "A"
        try context.save()
        context.refresh(ledger, mergeChanges: true)
        #expect(ledger.hooks.isEmpty, "merging keeps the values: no fault")
        context.refresh(ledger, mergeChanges: false)
        #expect(ledger.hooks == ["will A", "did, fault true"], "the values are still there before, gone after")
        context.refresh(ledger, mergeChanges: false)
        #expect(ledger.hooks.count == 2, "a fault refreshed is not told again")
        #expect(ledger.code == "A")
        ledger.code = "B"
        context.refresh(ledger, mergeChanges: false)
        #expect(ledger.hooks.suffix(2) == ["will B", "did, fault true"])
        #expect(ledger.code == "A", "the unsaved change was dropped")
    }
}
