/// The audited app as the rules see it: every file's types and functions, merged by type name.
struct AppModel {
    /// A function with where it is: its file and the type (or extension) it is declared in.
    struct Located {
        let function: FunctionDecl
        let path: String
        let type: TypeDecl?
    }

    let files: [SourceFile]
    /// Every type declaration and extension, nested ones included, with its file.
    let types: [(decl: TypeDecl, path: String)]
    let functions: [Located]
    /// Functions by base name, for calls to run in place (PathAnalyzer).
    let functionsByName: [String: [FunctionDecl]]
    /// What each type conforms to or inherits, over its declaration and extensions.
    let inherits: [String: Set<String>]
    private let byType: [String: [Located]]
    private let byFullName: [String: [Located]]

    init(files: [SourceFile]) {
        self.files = files
        var types: [(decl: TypeDecl, path: String)] = []
        func add(_ type: TypeDecl, _ path: String) {
            types.append((type, path))
            for nested in type.nested { add(nested, path) }
        }
        for file in files { for type in file.types { add(type, file.path) } }
        self.types = types
        var functions: [Located] = []
        for file in files {
            functions += file.functions.map { Located(function: $0, path: file.path, type: nil) }
        }
        for (type, path) in types { functions += type.functions.map { Located(function: $0, path: path, type: type) } }
        self.functions = functions
        self.functionsByName = Dictionary(grouping: functions.map(\.function), by: \.baseName)
        self.byType = Dictionary(grouping: functions.filter { $0.type != nil }, by: { $0.type?.name ?? "" })
        self.byFullName = Dictionary(grouping: functions, by: \.function.fullName)
        var inherits: [String: Set<String>] = [:]
        for (type, _) in types { inherits[type.name, default: []].formUnion(type.inherits) }
        self.inherits = inherits
    }

    /// The functions of the type called `name`, over its declaration and extensions.
    func functions(ofType name: String) -> [Located] {
        byType[name] ?? []
    }

    func conforms(_ type: String, to name: String) -> Bool { inherits[type]?.contains(name) == true }

    /// The functions named `fullName` anywhere in the app.
    func functions(named fullName: String) -> [Located] {
        byFullName[fullName] ?? []
    }

    /// Where launch happens: application(_:didFinishLaunchingWithOptions:) and willFinish, and the
    /// initializers of types that conform to App.
    var launchFunctions: [Located] {
        functions.filter { located in
            let name = located.function.fullName
            if name == "application(_:didFinishLaunchingWithOptions:)"
                || name == "application(_:willFinishLaunchingWithOptions:)"
            {
                return true
            }
            if located.function.baseName == "init", let type = located.type, conforms(type.name, to: "App") {
                return true
            }
            return false
        }
    }

    /// The functions that run at launch: the launch functions, and what they call directly (not in a
    /// closure), transitively, including the initializers of app types they name.
    var launchReachable: Set<String> {
        var reached = Set<String>()
        var queue = launchFunctions.map(\.function)
        let typeNames = Set(types.map(\.decl.name))
        func key(_ function: FunctionDecl) -> String { "\(function.fullName)@\(function.location)" }
        while let function = queue.popLast() {
            guard reached.insert(key(function)).inserted else { continue }
            for statement in function.body {
                visitOutsideClosures(statement) { expression in
                    switch expression {
                    case .call(let call):
                        for candidate in functionsByName[call.name] ?? [] { queue.append(candidate) }
                        if typeNames.contains(call.name) {
                            queue += functions(ofType: call.name).filter { $0.function.baseName == "init" }.map(
                                \.function)
                        }
                    case .name(let name, _) where typeNames.contains(name):
                        queue += functions(ofType: name).filter { $0.function.baseName == "init" }.map(\.function)
                    default: break
                    }
                }
            }
        }
        return reached
    }

    func isLaunchReachable(_ function: FunctionDecl, in reached: Set<String>) -> Bool {
        reached.contains("\(function.fullName)@\(function.location)")
    }
}

/// Calls `body` on every expression of `statement` and its nested statements, but not inside closures.
func visitOutsideClosures(_ statement: Statement, _ body: (Expression) -> Void) {
    for expression in statement.expressions { expression.visit(enteringClosures: false, body) }
    if case .function = statement { return }
    for block in statement.blocks { for nested in block { visitOutsideClosures(nested, body) } }
}
