/// Records changes so that they can be undone and redone, as Foundation's `UndoManager` does
/// on Apple's platforms (Foundation on Linux has none): actions in groups, an undo stack and a
/// redo stack, groups opened by the first registration of an event and closed at its end.
///
/// Give one to a context (``ManagedObjectContext/undoManager``, nil by default, as in Core
/// Data) and its changes are recorded, one group per event (each outermost `perform` or
/// `performAndWait` block, or up to ``ManagedObjectContext/processPendingChanges()``):
///
/// ```swift
/// context.undoManager = UndoManager()
/// context.performAndWait { note.title = "Draft" }     // one event, one group
/// context.performAndWait { context.undo() }           // the title is back
/// context.performAndWait { context.redo() }           // "Draft" again
/// ```
///
/// Not `Sendable`: use it on the queue of the context that has it.
public final class UndoManager {
    private struct Group {
        var actions: [() -> Void] = []
        var name = ""
    }

    private var undoStack: [Group] = []
    private var redoStack: [Group] = []
    /// The groups being filled, outermost first.
    private var open: [Group] = []
    /// Whether the outermost open group was opened by a registration (closed at the event's end).
    private var openedByEvent = false
    /// Actions registered while undoing or redoing: they become the group of the other stack.
    private var inverse: Group?
    private var disabled = 0
    /// The contexts that record their changes here (each told to, before an undo or a redo).
    private var contexts: [WeakUndoContext] = []
    private var checkpointing = false

    /// Whether a registration outside any group opens one that lasts until the event ends
    /// (default true, as in Foundation).
    public var groupsByEvent = true
    /// The most groups the undo stack keeps (0, the default: no limit); older ones are dropped.
    public var levelsOfUndo = 0 {
        didSet { trim(&undoStack) }
    }
    /// True while ``undo()`` runs actions, false otherwise.
    public private(set) var isUndoing = false
    /// True while ``redo()`` runs actions.
    public private(set) var isRedoing = false

    /// An undo manager with empty stacks.
    public init() {}

    /// How many groups are open.
    public var groupingLevel: Int { open.count }
    /// Whether there is a group to undo (or one open with actions).
    public var canUndo: Bool { !undoStack.isEmpty || open.contains { !$0.actions.isEmpty } }
    /// Whether there is a group to redo.
    public var canRedo: Bool { !redoStack.isEmpty }
    /// Whether registrations are recorded (see ``disableUndoRegistration()``).
    public var isUndoRegistrationEnabled: Bool { disabled == 0 }
    /// The name of the group ``undo()`` would undo, and of the one ``redo()`` would redo.
    public var undoActionName: String { undoStack.last?.name ?? "" }
    public var redoActionName: String { redoStack.last?.name ?? "" }

    /// Opens a group inside the open one (if any): its actions are undone together. The
    /// contexts that record here record their pending changes first (Foundation's checkpoint),
    /// so that changes made before the group are not in it.
    public func beginUndoGrouping() {
        checkpoint()
        open.append(Group())
    }

    /// Opens a group, without a checkpoint (a registration's, from within one).
    private func openGroup() {
        open.append(Group())
    }

    /// Closes the innermost open group; closing the outermost one puts it on the undo stack
    /// (when it has actions). The contexts record their pending changes first, into the group.
    /// Closing with none open is a programmer error.
    public func endUndoGrouping() {
        checkpoint()
        closeGroup()
    }

    /// Closes the innermost open group, without a checkpoint.
    private func closeGroup() {
        precondition(!open.isEmpty, "ManagedStore: endUndoGrouping() with no group open")
        let group = open.removeLast()
        if open.isEmpty { openedByEvent = false }
        guard !group.actions.isEmpty else { return }
        if open.isEmpty {
            undoStack.append(group)
            trim(&undoStack)
        } else {
            open[open.count - 1].actions += group.actions
        }
    }

    /// Records `handler` to run on `target` when the current group is undone (while undoing:
    /// when it is redone). A registration outside undo and redo clears the redo stack.
    public func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        guard disabled == 0 else { return }
        // The target is held weakly, as Foundation's undo manager does not retain it.
        let action = { [weak target] in if let target { handler(target) } }
        if isUndoing || isRedoing {
            inverse?.actions.append(action)
            return
        }
        if open.isEmpty {
            openGroup()
            openedByEvent = groupsByEvent
        }
        open[open.count - 1].actions.append(action)
        redoStack.removeAll()
    }

    /// Names the current group (or, while undoing or redoing, the one being made).
    public func setActionName(_ name: String) {
        if isUndoing || isRedoing {
            inverse?.name = name
        } else if !open.isEmpty {
            open[open.count - 1].name = name
        } else if !undoStack.isEmpty {
            undoStack[undoStack.count - 1].name = name
        }
    }

    /// Stops recording registrations until as many ``enableUndoRegistration()`` calls.
    public func disableUndoRegistration() { disabled += 1 }

    /// Undoes one ``disableUndoRegistration()``.
    public func enableUndoRegistration() {
        precondition(disabled > 0, "ManagedStore: enableUndoRegistration() without disableUndoRegistration()")
        disabled -= 1
    }

    /// Forgets every group, on both stacks.
    public func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        open.removeAll()
        openedByEvent = false
    }

    /// Undoes the last group: its actions run in the reverse of the order they were
    /// registered, and what they register becomes a group of the redo stack. The contexts that
    /// record here record their pending changes first, and the open event's group is closed.
    public func undo() {
        checkpoint()
        if openedByEvent || open.count == 1 { closeAll() }
        precondition(open.isEmpty, "ManagedStore: undo() with \(open.count) nested groups open")
        guard let group = undoStack.popLast() else { return }
        run(group, undoing: true)
    }

    /// Redoes the last undone group; what it registers goes back on the undo stack.
    public func redo() {
        checkpoint()
        if openedByEvent || open.count == 1 { closeAll() }
        precondition(open.isEmpty, "ManagedStore: redo() with \(open.count) nested groups open")
        guard let group = redoStack.popLast() else { return }
        run(group, undoing: false)
    }

    private func run(_ group: Group, undoing: Bool) {
        inverse = Group(actions: [], name: group.name)
        if undoing { isUndoing = true } else { isRedoing = true }
        for action in group.actions.reversed() { action() }
        // The contexts record what the actions changed, into `inverse`.
        checkpoint()
        isUndoing = false
        isRedoing = false
        if let made = inverse, !made.actions.isEmpty {
            if undoing {
                redoStack.append(made)
            } else {
                undoStack.append(made)
                trim(&undoStack)
            }
        }
        inverse = nil
    }

    private func closeAll() {
        while !open.isEmpty { closeGroup() }
    }

    private func trim(_ stack: inout [Group]) {
        if levelsOfUndo > 0 && stack.count > levelsOfUndo { stack.removeFirst(stack.count - levelsOfUndo) }
    }

    // MARK: Contexts

    /// Makes `context` record its changes here.
    func attach(_ context: ManagedObjectContext) {
        contexts.removeAll { $0.context == nil || $0.context === context }
        contexts.append(WeakUndoContext(context: context))
    }

    func detach(_ context: ManagedObjectContext) {
        contexts.removeAll { $0.context == nil || $0.context === context }
    }

    /// Closes the group the last event opened (called by a context at the end of its event).
    func endEvent() {
        if openedByEvent && open.count == 1 { closeGroup() }
    }

    /// The contexts record their pending changes (Foundation posts a checkpoint notification,
    /// to which Core Data's contexts answer so).
    private func checkpoint() {
        // A context records its changes from within processPendingChanges: no second pass then.
        guard !checkpointing else { return }
        checkpointing = true
        defer { checkpointing = false }
        for entry in contexts { entry.context?.processPendingChanges() }
    }
}

/// A context an undo manager serves, held weakly.
private struct WeakUndoContext {
    weak var context: ManagedObjectContext?
}
