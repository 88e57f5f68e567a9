// Turns the JSON of `swiftc -frontend -dump-parse -dump-ast-format json` into the syntax model.
//
// The dump gives byte ranges to declarations and statements only. Expressions get their position from
// the locator: a cursor that walks the identifier tokens of the narrowest enclosing range, in the order
// the builder visits the tree (which is source order: a member's base before its name, a callee before
// its arguments). A name not found there takes the cursor's position; nothing is ever guessed from text
// outside the range the compiler gave.
import APNs

struct SyntaxBuilder {
    let text: SourceText
    let path: String
    var cursor = 0
    var bound: Int

    init(text: SourceText, path: String) {
        self.text = text
        self.path = path
        self.bound = text.bytes.count
    }

    mutating func sourceFile(_ root: JSONValue) -> SourceFile {
        var file = SourceFile(path: path)
        for item in root["items"]?.arrayValue ?? [] {
            switch item.kind {
            case "import_decl":
                file.imports += (item["module_path"]?.arrayValue ?? []).compactMap(\.stringValue)
            case "top_level_code_decl":
                file.statements += withRange(item) { builder in builder.statements(item["body"]) }
            case "func_decl":
                if let function = function(item) { file.functions.append(function) }
            default:
                if let type = typeDecl(item) { file.types.append(type) }
            }
        }
        return file
    }

    // MARK: Ranges and the locator

    func range(_ node: JSONValue?) -> (start: Int, end: Int)? {
        guard let range = node?["range"], let start = range["start"]?.intValue, let end = range["end"]?.intValue
        else { return nil }
        return (start, end)
    }

    func location(_ offset: Int) -> SourceLocation { text.location(ofOffset: offset) }

    /// Runs `body` with the cursor at the start of `node`'s range and the search bounded by its end.
    mutating func withRange<T>(_ node: JSONValue?, _ body: (inout SyntaxBuilder) -> T) -> T {
        guard let (start, end) = range(node) else { return body(&self) }
        let saved = (cursor, bound)
        cursor = start
        bound = end
        let result = body(&self)
        cursor = max(saved.0, end + 1)
        bound = saved.1
        return result
    }

    /// The position of the next token spelled `name` in the current range, advancing the cursor past it.
    mutating func locate(_ name: String) -> SourceLocation {
        if let offset = text.find(name, from: cursor, through: bound) {
            cursor = offset + 1
            return location(offset)
        }
        return location(cursor)
    }

    // MARK: Declarations

    mutating func typeDecl(_ node: JSONValue) -> TypeDecl? {
        let kinds: [String: TypeDecl.Kind] = [
            "class_decl": .class, "struct_decl": .struct, "enum_decl": .enum, "actor_decl": .actor,
            "protocol_decl": .protocol, "extension_decl": .extension,
        ]
        guard let kind = kinds[node.kind], let (start, end) = range(node) else { return nil }
        let name: String
        if kind == .extension {
            name = String((node["extended_type"]?.stringValue ?? "").split(separator: ".").last ?? "")
        } else {
            name = node["name"]?["base_name"]?["name"]?.stringValue ?? ""
        }
        let inheritedCount = node["inherits"]?.arrayValue?.count ?? 0
        let attributes = (node["attrs"]?.arrayValue ?? []).compactMap { attribute -> String? in
            attribute.kind == "main_type_attr" ? "main" : nil
        }
        var type = TypeDecl(
            kind: kind, name: name,
            inherits: inheritedCount == 0 ? [] : inheritedNames(after: name, from: start, through: end),
            attributes: attributes, location: location(start))
        for member in node["members"]?.arrayValue ?? [] {
            switch member.kind {
            case "func_decl", "constructor_decl":
                if let function = function(member) { type.functions.append(function) }
            case "pattern_binding_decl":
                if let binding = statement(member) { type.propertyBindings.append(binding) }
            case "var_decl":
                if let property = member["name"]?["base_name"]?["name"]?.stringValue {
                    type.properties.append(property)
                }
                for accessor in member["accessors"]?.arrayValue ?? [] {
                    if let function = function(accessor) { type.functions.append(function) }
                }
            default:
                if let nested = typeDecl(member) { type.nested.append(nested) }
            }
        }
        return type
    }

    /// The inheritance clause's entries, read from the tokens after the type's name: the dump counts
    /// them but prints no names before type checking. Each entry gives its last name (`UIKit.X` is `X`).
    func inheritedNames(after name: String, from start: Int, through end: Int) -> [String] {
        let tokens = text.tokens
        var index = text.firstToken(atOrAfter: start)
        let lastName = String(name.split(separator: ".").last ?? "")
        while index < tokens.count, tokens[index].offset <= end, tokens[index].text != lastName { index += 1 }
        index += 1
        var depth = 0
        var names: [String] = []
        var current: String?
        var started = false
        while index < tokens.count, tokens[index].offset <= end {
            let token = tokens[index].text
            index += 1
            switch token {
            case "<", "(": depth += 1
            case ">", ")": depth -= 1
            case ":" where depth == 0 && !started: started = true
            case "," where depth == 0 && started:
                if let current { names.append(current) }
                current = nil
            case "{" where depth == 0, "where" where depth == 0:
                if let current { names.append(current) }
                return names
            case ".", ":", ",", "{", "}": break
            default:
                if started && depth == 0 && token != "any" && token != "some" { current = token }
            }
        }
        if let current { names.append(current) }
        return names
    }

    mutating func function(_ node: JSONValue) -> FunctionDecl? {
        guard let body = node["body"], body.kind == "brace_stmt", let (start, _) = range(node),
            let (bodyStart, bodyEnd) = range(body)
        else { return nil }
        let declName = node["name"]
        var baseName = declName?["base_name"]?["name"]?.stringValue ?? ""
        if node.kind == "constructor_decl" { baseName = "init" }
        if node.kind == "accessor_decl" { baseName = (node["for"]?.stringValue ?? "") + ".get" }
        let labels = (declName?["args"]?.arrayValue ?? []).map { $0.stringValue ?? "" }
        let parameterNodes = node["params"]?["params"]?.arrayValue ?? []
        let parameters = parameterNodes.enumerated().map { index, parameter in
            let label = index < labels.count ? labels[index] : (parameter["apiName"]?.stringValue ?? "")
            return FunctionDecl.Parameter(
                label: label.isEmpty ? nil : label, name: parameter["name"]?["base_name"]?["name"]?.stringValue ?? "_")
        }
        let fullName =
            node.kind == "accessor_decl"
            ? baseName : baseName + "(" + labels.map { ($0.isEmpty ? "_" : $0) + ":" }.joined() + ")"
        let parametersEnd = range(node["params"])?.end ?? start
        let isAsync = text.find("async", from: parametersEnd, through: bodyStart) != nil
        let statements = withRange(node) { builder in builder.statements(body) }
        return FunctionDecl(
            fullName: fullName, baseName: baseName, parameters: parameters, isAsync: isAsync, body: statements,
            location: location(start), end: location(bodyEnd))
    }
}

extension JSONValue {
    /// The node's `_kind`: `call_expr`, `if_stmt`, ...
    var kind: String { self["_kind"]?.stringValue ?? "" }
}
