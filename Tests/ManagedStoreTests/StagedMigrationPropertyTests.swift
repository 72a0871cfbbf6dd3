import Foundation
import ManagedStore
import TestSupport
import Testing

/// Property: for seeded random chains of model versions (attributes added, removed, renamed;
/// types converted through a custom stage whose didMigrateHandler fills a new attribute from
/// the old; values filled in by a willMigrateHandler before a change), a store made at any
/// version and opened with the last one holds, row by row, what the test computes itself by
/// applying the same changes to its own copy of the rows.
@Suite struct StagedMigrationPropertyTests {
    struct Field: Hashable {
        var name: String
        var type: AttributeType
        var renamed: String? = nil
    }

    typealias Rows = [Int64: [String: AttributeValue]]

    /// One change between two versions: how the test changes its rows, and the stage's handlers.
    struct Transition {
        var custom: (will: CustomMigrationStage.Handler?, did: CustomMigrationStage.Handler?)?
        var apply: (inout Rows) -> Void
    }

    static func model(_ fields: [Field]) -> ManagedObjectModel {
        StagedMigrationTests.model(fields.map { ($0.name, $0.type, $0.renamed) })
    }

    static func convert(_ value: AttributeValue, to type: AttributeType) -> AttributeValue {
        switch (value, type) {
        case (.integer(let number), .string): return .string(String(number))
        case (.string(let text), .integer64): return Int64(text).map { .integer($0) } ?? .null
        case (.integer(let number), .double): return .double(Double(number))
        default: return .null
        }
    }

    /// Sets `target` of every Item from `source` with `transform`, through the migrating store.
    static func rewrite(
        _ manager: StagedMigrationManager, _ transform: @escaping @Sendable (ManagedObject) -> Void
    ) throws {
        let context = manager.container!.newBackgroundContext()
        try context.performAndWait {
            for item in try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")) { transform(item) }
            try context.save()
        }
    }

    static func value(_ object: ManagedObject, _ name: String) -> AttributeValue {
        object.committedValues(forKeys: [name])[name] ?? .null
    }

    static func set(_ object: ManagedObject, _ name: String, _ value: AttributeValue) {
        switch value {
        case .null: object.setValue(nil, forKey: name)
        case .string(let text): object.setValue(text, forKey: name)
        case .integer(let number): object.setValue(number, forKey: name)
        case .double(let number): object.setValue(number, forKey: name)
        default: preconditionFailure("not used here")
        }
    }

    @Test func randomChainsMigrateRowByRow() throws {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
        var random = SeededGenerator(seed: seed)
        var migrated = 0
        for round in 0..<25 {
            var serial = 0
            func fresh() -> String {
                serial += 1
                return "f\(serial)"
            }
            func randomType() -> AttributeType { [.string, .integer64, .double].randomElement(using: &random)! }
            var versions: [[Field]] = [
                (0..<Int.random(in: 0..<3, using: &random)).map { _ in Field(name: fresh(), type: randomType()) }
            ]
            var transitions: [Transition] = []
            var checksums: Set<String> = [Self.model(versions[0]).versionChecksum]
            var described: [String] = []
            while versions.count < Int.random(in: 3..<8, using: &random) {
                var fields = versions.last!.map { Field(name: $0.name, type: $0.type) }
                var transition: Transition
                var label: String
                switch Int.random(in: 0..<5, using: &random) {
                case 1 where !fields.isEmpty:
                    let gone = fields.remove(at: Int.random(in: 0..<fields.count, using: &random)).name
                    transition = Transition { rows in for key in rows.keys { rows[key]![gone] = nil } }
                    label = "remove \(gone)"
                case 2 where !fields.isEmpty:
                    let index = Int.random(in: 0..<fields.count, using: &random)
                    let old = fields[index].name, new = fresh()
                    fields[index] = Field(name: new, type: fields[index].type, renamed: old)
                    transition = Transition { rows in
                        for key in rows.keys { rows[key]![new] = rows[key]![old]; rows[key]![old] = nil }
                    }
                    label = "rename \(old) to \(new)"
                case 3 where fields.contains { $0.type != .double }:
                    // A type change: a custom stage to a version with a new attribute of the new
                    // type, filled from the old one after the migration; the next version drops it.
                    let index = fields.indices.filter { fields[$0].type != .double }.randomElement(using: &random)!
                    let old = fields[index]
                    let type: AttributeType =
                        old.type == .string ? .integer64 : [.string, .double].randomElement(using: &random)!
                    let new = fresh()
                    fields.append(Field(name: new, type: type))
                    let did: CustomMigrationStage.Handler = { manager, _ in
                        try Self.rewrite(manager) { item in
                            Self.set(item, new, Self.convert(Self.value(item, old.name), to: type))
                        }
                    }
                    transition = Transition(custom: (nil, did)) { rows in
                        for key in rows.keys { rows[key]![new] = Self.convert(rows[key]![old.name] ?? .null, to: type) }
                    }
                    label = "convert \(old.name) to \(type) as \(new)"
                case 4 where fields.contains { $0.type == .string }:
                    // Values filled in before a change, by a willMigrateHandler.
                    let target = fields.filter { $0.type == .string }.randomElement(using: &random)!.name
                    fields.append(Field(name: fresh(), type: randomType()))
                    let will: CustomMigrationStage.Handler = { manager, _ in
                        try Self.rewrite(manager) { item in
                            if Self.value(item, target).isNull { item.setValue("filled", forKey: target) }
                        }
                    }
                    let added = fields.last!.name
                    transition = Transition(custom: (will, nil)) { rows in
                        for key in rows.keys {
                            if (rows[key]![target] ?? .null).isNull { rows[key]![target] = .string("filled") }
                            rows[key]![added] = .null
                        }
                    }
                    label = "fill \(target), add \(added)"
                default:
                    let name = fresh()
                    fields.append(Field(name: name, type: randomType()))
                    transition = Transition { rows in for key in rows.keys { rows[key]![name] = .null } }
                    label = "add \(name)"
                }
                guard checksums.insert(Self.model(fields).versionChecksum).inserted else { continue }
                versions.append(fields)
                transitions.append(transition)
                described.append(label)
            }
            let models = versions.map(Self.model)
            var stages: [MigrationStage] = []
            var run: [ManagedObjectModelReference] = []
            for (index, transition) in transitions.enumerated() {
                let from = StagedMigrationTests.reference(models[index]),
                    to = StagedMigrationTests.reference(models[index + 1])
                if let custom = transition.custom {
                    if run.count > 1 { stages.append(LightweightMigrationStage(run)) }
                    run = []
                    let stage = CustomMigrationStage(migratingFrom: from, to: to)
                    stage.willMigrateHandler = custom.will
                    stage.didMigrateHandler = custom.did
                    stages.append(stage)
                } else {
                    if run.isEmpty { run = [from] }
                    run.append(to)
                }
            }
            if run.count > 1 { stages.append(LightweightMigrationStage(run)) }

            // A store at a random version, with random rows.
            let start = Int.random(in: 0..<versions.count, using: &random)
            let dir = TemporaryDirectory()
            let url = dir.file("chain.sqlite")
            var rows: Rows = [:]
            for key in Int64(1)...Int64(Int.random(in: 1...30, using: &random)) {
                var row: [String: AttributeValue] = [:]
                for field in versions[start] {
                    let number = Int64.random(in: -999...999, using: &random)
                    row[field.name] =
                        Int.random(in: 0..<5, using: &random) == 0
                        ? .null
                        : field.type == .string
                            ? .string(String(number))
                            : field.type == .integer64 ? .integer(number) : .double(Double(number) + 0.25)
                }
                rows[key] = row
            }
            do {
                let container = try StagedMigrationTests.open(url, models[start])
                let context = container.newBackgroundContext()
                let made = rows
                try context.performAndWait {
                    for (key, values) in made {
                        let item = ManagedObject(entity: models[start].entities[0], insertInto: context)
                        item.setValue(key, forKey: "key")
                        for (name, value) in values { Self.set(item, name, value) }
                    }
                    try context.save()
                }
            }
            for transition in transitions[start...] { transition.apply(&rows) }
            let context = "seed \(seed), round \(round), from version \(start) of \(described)"
            let container = try StagedMigrationTests.open(url, models.last!, StagedMigrationManager(stages))
            let stored = try StagedMigrationTests.rows(container)
            #expect(stored.count == rows.count, "\(context)")
            for (key, expected) in rows {
                let found = stored[key] ?? [:]
                let wanted = expected.filter { !$0.value.isNull }
                #expect(found.filter { !$0.value.isNull } == wanted, "\(context): row \(key)")
            }
            migrated += start < versions.count - 1 ? 1 : 0
        }
        #expect(migrated > 10, "most rounds start behind the last version")
    }
}
