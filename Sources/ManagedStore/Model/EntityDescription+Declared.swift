extension EntityDescription {
    /// An entity whose attributes are the `@Attribute` properties the class declares (its
    /// superclasses' first), in declaration order: the model is written once, in the class.
    /// Each attribute is named like its property; its type and optionality come from the
    /// property's Swift type. What a property cannot say is given here: defaults, renaming
    /// identifiers (`renamedAttributes`, new name to old), relationships (their destinations,
    /// inverses and rules), constraints and indexes.
    ///
    /// ```swift
    /// final class Note: ManagedObject {
    ///     @Attribute var title: String
    ///     @Attribute var stars: Int16
    ///     @Attribute var body: String?
    /// }
    /// let note = EntityDescription(name: "Note", declaredBy: Note.self,
    ///                              defaults: ["stars": .integer(0)], uniquenessConstraints: [["title"]])
    /// ```
    ///
    /// It reads the class by reflection, once, when the model is made.
    public convenience init(
        name: String, declaredBy managedObjectClass: ManagedObject.Type,
        defaults: [String: AttributeValue] = [:], renamedAttributes: [String: String] = [:],
        relationships: [RelationshipDescription] = [], uniquenessConstraints: [[String]] = [],
        indexes: [[String]] = [], renamingIdentifier: String? = nil
    ) {
        let attributes = Self.declaredAttributes(of: managedObjectClass).map { declared in
            AttributeDescription(
                name: declared.name, type: declared.type, isOptional: declared.isOptional,
                defaultValue: defaults[declared.name] ?? .null, renamingIdentifier: renamedAttributes[declared.name])
        }
        let names = Set(attributes.map(\.name))
        for key in defaults.keys where !names.contains(key) {
            preconditionFailure(
                "ManagedStore: a default is given for '\(key)', which \(managedObjectClass) does not declare as an @Attribute"
            )
        }
        self.init(
            name: name, managedObjectClass: managedObjectClass, attributes: attributes, relationships: relationships,
            uniquenessConstraints: uniquenessConstraints, indexes: indexes, renamingIdentifier: renamingIdentifier)
    }

    /// The `@Attribute` properties of `managedObjectClass`: name, type, optionality.
    static func declaredAttributes(
        of managedObjectClass: ManagedObject.Type
    ) -> [(name: String, type: AttributeType, isOptional: Bool)] {
        // An instance is needed to reflect on; it gets an entity without attributes, which no
        // model holds (the wrappers keep no values of their own, so nothing is read).
        let placeholder = EntityDescription(
            name: "DeclaredBy" + String(describing: managedObjectClass).filter { $0.isLetter || $0.isNumber },
            placeholderFor: managedObjectClass)
        let instance = managedObjectClass.init(entity: placeholder, insertInto: nil)
        var chain: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: instance)
        while let current = mirror {
            chain.append(current)
            mirror = current.superclassMirror
        }
        var declared: [(name: String, type: AttributeType, isOptional: Bool)] = []
        for current in chain.reversed() {
            for child in current.children {
                guard let label = child.label, label.hasPrefix("_"),
                    let wrapper = child.value as? any AttributePropertyWrapper
                else { continue }
                let valueType = type(of: wrapper).valueType
                declared.append((String(label.dropFirst()), valueType.attributeType, valueType.isOptionalAttribute))
            }
        }
        return declared
    }
}
