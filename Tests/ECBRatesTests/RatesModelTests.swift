import ECBRates
import ManagedStore
import Testing

/// RatesModel lists each entity's attributes explicitly, because building an entity from its
/// class by reflection (`EntityDescription(name:declaredBy:)`) measured 1.1 ms more on every
/// query's start (10.3 ms against 11.4, median of 30 `ecbrates rate` runs). This keeps the two
/// from drifting: the lists must be exactly what the classes declare.
@Suite struct RatesModelTests {
    @Test(arguments: RatesModel.model.entities.map(\.name))
    func theModelsAttributesAreWhatTheClassDeclares(entity name: String) throws {
        let entity = try #require(RatesModel.model.entitiesByName[name])
        let declared = EntityDescription(name: "Declared\(name)", declaredBy: entity.managedObjectClass)
        func facts(_ entity: EntityDescription) -> [String] {
            entity.attributes.map { "\($0.name) \($0.type) \($0.isOptional)" }
        }
        #expect(facts(entity) == facts(declared))
    }
}
