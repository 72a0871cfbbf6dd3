import Synchronization

/// What a managed object holds of its context: the objects hold the link strongly, and the
/// link holds the context weakly, so that an object does not keep its context alive (as in
/// Core Data) while a context with thousands of objects is weakly referenced once, not once per
/// object.
///
/// Each object weakly referencing its context directly cost an importer a weak-reference store
/// and destroy per object, on the context's side table; a strong reference to the link costs a
/// plain retain and release. The link also gives the context's own passes an identity to
/// compare (`object.link === link`) without loading the weak reference, which would retain the
/// context through its side table; a link outlives its context while objects hold it, so a later
/// context never has the same one.
///
/// `@unchecked Sendable`: `context` is written once, by the context's initializer, before the
/// context is shared; `isGone` is atomic.
final class ContextLink: @unchecked Sendable {
    /// The context, or nil once it is gone.
    weak var context: ManagedObjectContext?
    /// Set by the context's deinit: a cheap "is it gone?" for the paths that would otherwise
    /// load `context` only to ask that.
    let isGone = Atomic(false)

    init() {}
}
