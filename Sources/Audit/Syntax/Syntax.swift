// The small syntax model the audit rules read: what `swiftc -dump-parse` says about a file, without
// types (nothing is type-checked: the iOS SDK is not needed), reduced to what the rules ask about.

/// One parsed Swift file.
public struct SourceFile: Sendable {
    public let path: String
    public var imports: [String] = []
    public var types: [TypeDecl] = []
    /// Functions declared at file scope.
    public var functions: [FunctionDecl] = []
    /// File-scope statements (top-level code, as in main.swift).
    public var statements: [Statement] = []
}

/// A class, struct, enum, actor, protocol or extension, with what it says it conforms to.
public struct TypeDecl: Sendable {
    public enum Kind: String, Sendable { case `class`, `struct`, `enum`, actor, `protocol`, `extension` }
    public let kind: Kind
    /// The type's name; for an extension, the extended type's (the last component of `A.B`).
    public let name: String
    /// The inherited types as written (`UIResponder`, `UNUserNotificationCenterDelegate`), last component.
    public var inherits: [String]
    public var attributes: [String]
    public var functions: [FunctionDecl] = []
    /// Stored or computed properties, by name.
    public var properties: [String] = []
    /// Property declarations with an initial value: `let center = UNUserNotificationCenter.current()`.
    public var propertyBindings: [Statement] = []
    public var nested: [TypeDecl] = []
    public let location: SourceLocation

    public var isMain: Bool { attributes.contains("main") }
}

/// A function, initializer or accessor with a body.
public struct FunctionDecl: Sendable {
    public struct Parameter: Sendable {
        /// The argument label (`nil` for `_`).
        public let label: String?
        /// The name inside the body.
        public let name: String
    }

    /// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`, `init()`.
    public let fullName: String
    public let baseName: String
    public let parameters: [Parameter]
    public let isAsync: Bool
    public var body: [Statement]
    public let location: SourceLocation
    /// Where the body's closing brace is: the exit of a path that runs off the end.
    public let end: SourceLocation
}

/// A statement, reduced to what control flow and calls need.
public indirect enum Statement: Sendable {
    case expression(Expression)
    /// `let`/`var` with what it binds and its initial value.
    case binding(names: [String], value: Expression?, at: SourceLocation)
    case ifElse(conditions: [Expression], then: [Statement], else: [Statement]?, at: SourceLocation)
    case guardElse(conditions: [Expression], body: [Statement], at: SourceLocation)
    case switchCases(subject: Expression, cases: [[Statement]], at: SourceLocation)
    /// `for`, `while` and `repeat`: the body runs any number of times (`repeat`: at least once).
    case loop(header: [Expression], body: [Statement], atLeastOnce: Bool, at: SourceLocation)
    case doCatch(body: [Statement], catches: [[Statement]], at: SourceLocation)
    case returnStatement(Expression?, at: SourceLocation)
    case throwStatement(Expression?, at: SourceLocation)
    case breakStatement(at: SourceLocation)
    case continueStatement(at: SourceLocation)
    case deferBlock([Statement], at: SourceLocation)
    /// A function declared inside a body.
    case function(FunctionDecl)
}

/// An expression, reduced to calls, names, member accesses, closures and string literals.
public indirect enum Expression: Sendable {
    case call(Call)
    /// A bare name: `deviceToken`, `self`, `String`.
    case name(String, at: SourceLocation)
    /// `base.name`, or `.name` with no base (an implicit member such as `.newData`).
    case member(base: Expression?, name: String, at: SourceLocation)
    case closure(Closure)
    /// A string literal; `interpolations` are the expressions inside `\(...)`.
    case string(String, interpolations: [Expression], at: SourceLocation)
    /// `dest = source`.
    case assignment(dest: Expression, source: Expression)
    /// `try` (not `try?` or `try!`): the expression may throw out of the enclosing scope.
    case tryExpression(Expression)
    /// Anything else, with its sub-expressions in source order.
    case other(kind: String, [Expression])
}

public struct Call: Sendable {
    public struct Argument: Sendable {
        public let label: String?
        public let value: Expression
    }

    public let callee: Expression
    public let arguments: [Argument]
    public let location: SourceLocation

    /// The callee as a dotted path of names: `["UNUserNotificationCenter", "current"]`; `?` and `!` dropped.
    public var namePath: [String] { callee.namePath }
    /// The last name of the path: `registerForRemoteNotifications`.
    public var name: String { namePath.last ?? "" }
    public var labels: [String?] { arguments.map(\.label) }
    public var closures: [Closure] { arguments.compactMap { if case .closure(let c) = $0.value { c } else { nil } } }
}

public struct Closure: Sendable {
    public let parameters: [String]
    public let body: [Statement]
    public let location: SourceLocation
    public let end: SourceLocation
}

extension Expression {
    /// The expression as a dotted path of names when it is one (`self.contentHandler`, `a.b().c` gives `a b c`).
    public var namePath: [String] {
        switch self {
        case .name(let name, _): return [name]
        case .member(let base, let name, _): return (base?.namePath ?? []) + [name]
        case .call(let call): return call.callee.namePath
        case .other(let kind, let children) where Expression.transparentKinds.contains(kind) && children.count == 1:
            return children[0].namePath
        case .tryExpression(let inner): return inner.namePath
        default: return []
        }
    }

    /// Kinds that only wrap their one operand: `x?`, `x!`, `(x)`, `await x`, `x as T`.
    static let transparentKinds: Set<String> = [
        "bind_optional_expr", "force_value_expr", "paren_expr", "await_expr", "optional_evaluation_expr",
        "optional_try_expr", "force_try_expr", "coerce_expr", "dot_self_expr",
    ]

    /// Every name mentioned anywhere in the expression (not inside closures it contains).
    public var mentionedNames: Set<String> {
        var names = Set<String>()
        visit(enteringClosures: false) { expression in
            switch expression {
            case .name(let name, _): names.insert(name)
            case .member(_, let name, _): names.insert(name)
            default: break
            }
        }
        return names
    }

    /// Calls `body` on this expression and each sub-expression, in source order.
    public func visit(enteringClosures: Bool, _ body: (Expression) -> Void) {
        body(self)
        switch self {
        case .call(let call):
            call.callee.visit(enteringClosures: enteringClosures, body)
            for argument in call.arguments { argument.value.visit(enteringClosures: enteringClosures, body) }
        case .member(let base, _, _): base?.visit(enteringClosures: enteringClosures, body)
        case .closure(let closure):
            if enteringClosures { for statement in closure.body { statement.visit(body) } }
        case .string(_, let parts, _): for part in parts { part.visit(enteringClosures: enteringClosures, body) }
        case .assignment(let dest, let source):
            dest.visit(enteringClosures: enteringClosures, body)
            source.visit(enteringClosures: enteringClosures, body)
        case .tryExpression(let inner): inner.visit(enteringClosures: enteringClosures, body)
        case .other(_, let children): for child in children { child.visit(enteringClosures: enteringClosures, body) }
        case .name: break
        }
    }
}

extension Statement {
    /// The expressions directly in this statement (conditions, values), not those of nested statements.
    public var expressions: [Expression] {
        switch self {
        case .expression(let e): [e]
        case .binding(_, let value, _): value.map { [$0] } ?? []
        case .ifElse(let conditions, _, _, _), .guardElse(let conditions, _, _): conditions
        case .switchCases(let subject, _, _): [subject]
        case .loop(let header, _, _, _): header
        case .returnStatement(let value, _), .throwStatement(let value, _): value.map { [$0] } ?? []
        default: []
        }
    }

    /// The statement blocks nested directly in this one.
    public var blocks: [[Statement]] {
        switch self {
        case .ifElse(_, let then, let otherwise, _): [then] + (otherwise.map { [$0] } ?? [])
        case .guardElse(_, let body, _), .deferBlock(let body, _), .loop(_, let body, _, _): [body]
        case .switchCases(_, let cases, _): cases
        case .doCatch(let body, let catches, _): [body] + catches
        case .function(let function): [function.body]
        default: []
        }
    }

    /// Calls `body` on every expression in this statement and the statements nested in it, closures included.
    public func visit(_ body: (Expression) -> Void) {
        for expression in expressions { expression.visit(enteringClosures: true, body) }
        for block in blocks { for statement in block { statement.visit(body) } }
    }
}
