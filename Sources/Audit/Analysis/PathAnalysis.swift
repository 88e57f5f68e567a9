// A path analysis over one function body: for every path from entry to an exit, how many times a
// tracked call happens (a completion handler, an upload), and whether a prerequisite call (CallKit's
// report) came first.
//
// Paths follow if/guard/switch, loops (the body runs zero, one or two times: enough to see a second
// call), do/catch (a `try` may jump to the catches), defer, return, throw, break and continue. Calls
// that take closures run them where the call is, as completion handlers do: one closure runs once, two
// or more are alternatives (success or failure: one of them runs), and the closures of iterating calls
// (`forEach`, `map`, ...) run any number of times. A closure bound to a local name runs where the name
// is called. Functions of the audited app run in place when a call names exactly one of them, with the
// handler followed into the parameter it is passed as; a handler passed to any other function counts
// as called there (it is passed on).
//
// What comes out are observations: a second call on a path, a tracked call before the prerequisite,
// and exits where a path has no call (or no prerequisite). An exit is reported where the path gave up:
// the `return` (or the end) of a closure that has a tracked call on another of its paths, else the
// function's own `return` or closing brace.

/// A path's effect so far.
struct PathState: Hashable {
    /// Tracked calls on the path: 0, 1, or 2 for two or more.
    var calls = 0
    var prerequisite = false
    /// Where a closure on this path ended without the tracked call (see the file comment).
    var silentExit: SourceLocation?
}

/// What a path analysis found.
struct PathObservation: Hashable, Comparable {
    enum Kind: Int { case secondCall, callBeforePrerequisite, exitWithoutCall, exitWithoutPrerequisite }
    let kind: Kind
    let at: SourceLocation

    static func < (lhs: PathObservation, rhs: PathObservation) -> Bool {
        (lhs.at, lhs.kind.rawValue) < (rhs.at, rhs.kind.rawValue)
    }
}

/// What a call or an assignment means to one analysis.
enum PathEvent { case none, tracked, prerequisite }

/// The calls an analysis follows.
struct PathPolicy {
    /// The tracked names: the handler's parameter, or the token's.
    var names: Set<String>
    var tracksPrerequisite = false
    /// What `call` is, given the names tracked at that point.
    var classify: (Call, Set<String>) -> PathEvent
    /// What `dest = source` is (a token stored in a property counts as an upload).
    var classifyAssignment: (Expression, Expression, Set<String>) -> PathEvent = { _, _, _ in .none }
    /// Whether passing a tracked name to an unknown function counts as the tracked call.
    var passingOnCounts = true
}

/// The calls that stop a path: the app ends there, no finding is owed.
let terminatingCalls: Set<String> = ["fatalError", "preconditionFailure", "exit", "abort"]
/// Calls whose closure runs once per element, any number of times.
let iteratingCalls: Set<String> = [
    "forEach", "map", "compactMap", "flatMap", "filter", "reduce", "sorted", "contains", "first", "allSatisfy",
    "removeAll", "enumerateObjects",
]
