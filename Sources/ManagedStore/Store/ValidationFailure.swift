import Foundation

/// One thing a validation refused: the object, the property (nil for a rule of the whole
/// object, from a ``ManagedObject/validateForInsert()`` override), the value, Core Data's code
/// for it, and the reason. A save reports every failure of every object at once
/// (``ManagedStoreError/validationFailed(_:)``).
public struct ValidationFailure: Sendable, CustomStringConvertible {
    /// The object.
    public let objectID: ManagedObjectID
    /// The attribute or relationship, or nil for the object as a whole.
    public let attribute: String?
    /// Core Data's code for what is wrong.
    public let code: ValidationErrorCode
    /// The value refused (nil when the failure is not about one value).
    public let value: AttributeValue?
    /// What is wrong.
    public let reason: String
    /// The error an override threw, when it was not a ``ManagedStoreError/validationFailed(_:)``.
    public let underlyingError: (any Error)?

    /// A failure of `attribute` (nil: of the whole object) of the object `objectID`, for a
    /// ``ManagedObject/validateForInsert()`` override to throw in a
    /// ``ManagedStoreError/validationFailed(_:)``.
    public init(
        objectID: ManagedObjectID, attribute: String?, code: ValidationErrorCode = .managedObjectValidation,
        value: AttributeValue? = nil, reason: String
    ) {
        self.init(objectID: objectID, attribute: attribute, code: code, value: value, reason: reason, underlying: nil)
    }

    init(
        objectID: ManagedObjectID, attribute: String?, code: ValidationErrorCode, value: AttributeValue?,
        reason: String, underlying: (any Error)?
    ) {
        self.objectID = objectID
        self.attribute = attribute
        self.code = code
        self.value = value
        self.reason = reason
        self.underlyingError = underlying
    }

    public var description: String {
        if let attribute { return "\(objectID.entityName).\(attribute) of \(objectID): \(reason)" }
        return "\(objectID): \(reason)"
    }
}

/// Core Data's validation error codes (`NSValidation…Error` in `NSCocoaErrorDomain`), with
/// their values, so that code that tells failures apart by code reads as it does on Apple's
/// platforms.
public enum ValidationErrorCode: Int, Sendable, Hashable {
    /// `NSManagedObjectValidationError`: a validation predicate, or an override's own failure.
    case managedObjectValidation = 1550
    /// `NSValidationMultipleErrorsError`: several failures; ``ManagedStoreError/validationFailed(_:)``
    /// holds them all.
    case multipleErrors = 1560
    /// `NSValidationMissingMandatoryPropertyError`: nil in a property that is not optional.
    case missingMandatoryProperty = 1570
    /// `NSValidationRelationshipLacksMinimumCountError`.
    case relationshipLacksMinimumCount = 1580
    /// `NSValidationRelationshipExceedsMaximumCountError`.
    case relationshipExceedsMaximumCount = 1590
    /// `NSValidationRelationshipDeniedDeleteError`: a deletion a `.deny` rule refuses.
    case relationshipDeniedDelete = 1600
    /// `NSValidationNumberTooLargeError`.
    case numberTooLarge = 1610
    /// `NSValidationNumberTooSmallError`.
    case numberTooSmall = 1620
    /// `NSValidationDateTooLateError`.
    case dateTooLate = 1630
    /// `NSValidationDateTooSoonError`.
    case dateTooSoon = 1640
    /// `NSValidationStringTooLongError`.
    case stringTooLong = 1660
    /// `NSValidationStringTooShortError`.
    case stringTooShort = 1670
    /// `NSValidationStringPatternMatchingError`.
    case stringPatternMatching = 1680
}

extension ManagedStoreError {
    /// Core Data's code for a validation error: the failure's own for one failure,
    /// ``ValidationErrorCode/multipleErrors`` for several (as Core Data's `NSDetailedErrorsKey`
    /// holds them, ``validationFailed(_:)`` does); nil for an error that is not a validation's.
    public var validationErrorCode: ValidationErrorCode? {
        guard case .validationFailed(let failures) = self, let first = failures.first else { return nil }
        return failures.count == 1 ? first.code : .multipleErrors
    }
}
