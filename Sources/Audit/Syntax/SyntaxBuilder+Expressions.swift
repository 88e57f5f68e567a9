import APNs

extension SyntaxBuilder {
    mutating func expression(_ node: JSONValue) -> Expression {
        switch node.kind {
        case "call_expr":
            return call(node)
        case "unresolved_decl_ref_expr":
            let name = baseName(node["name"]?.stringValue ?? "")
            return .name(name, at: isIdentifier(name) ? locate(name) : location(cursor))
        case "declref_expr":
            let declaration = node["decl"]?.stringValue ?? ""
            let beforeAt = declaration.split(separator: "@").first.map(String.init) ?? declaration
            let name = baseName(String(beforeAt.split(separator: ".").last ?? ""))
            let implicit = node["implicit"]?.boolValue == true
            return .name(name, at: implicit ? location(cursor) : locate(name))
        case "unresolved_dot_expr":
            let base = node["base"].map { expression($0) }
            let name = baseName(node["field"]?.stringValue ?? "")
            return .member(base: base, name: name, at: locate(name))
        case "unresolved_member_expr":
            let name = baseName(node["name"]?.stringValue ?? "")
            return .member(base: nil, name: name, at: locate(name))
        case "closure_expr":
            return .closure(closure(node))
        case "capture_list":
            return node["closure_body"].map { expression($0) } ?? .other(kind: "capture_list", [])
        case "string_literal_expr":
            return .string(node["value"]?.stringValue ?? "", interpolations: [], at: locate("\""))
        case "interpolated_string_literal_expr":
            return interpolatedString(node)
        case "sequence_expr":
            let elements = node["elements"]?.arrayValue ?? []
            if elements.count == 3, elements[1].kind == "assign_expr" {
                let dest = expression(elements[0])
                return .assignment(dest: dest, source: expression(elements[2]))
            }
            return .other(
                kind: "sequence_expr",
                elements.flatMap { element -> [Expression] in
                    element.kind == "ternary_expr" || element.kind == "assign_expr"
                        ? children(element) : [expression(element)]
                })
        case "try_expr":
            return .tryExpression(node["sub_expr"].map { expression($0) } ?? .other(kind: "", []))
        default:
            return .other(kind: node.kind, children(node))
        }
    }

    /// The sub-expressions of a node the model does not name, in the order the dump lists them.
    mutating func children(_ node: JSONValue) -> [Expression] {
        var result: [Expression] = []
        for member in node.objectValue ?? JSONObject() {
            switch member.key {
            case "_kind", "type", "function_ref", "decl_context", "range", "written_type": continue
            default: break
            }
            if member.value.kind == "argument_list" {
                result += (member.value["args"]?.arrayValue ?? []).compactMap { $0["expr"] }.filter(\.isExpression)
                    .map { expression($0) }
            } else if member.value.isExpression {
                result.append(expression(member.value))
            } else if let array = member.value.arrayValue {
                result += array.filter(\.isExpression).map { expression($0) }
            }
        }
        return result
    }

    private mutating func call(_ node: JSONValue) -> Expression {
        let callee = node["fn"].map { expression($0) } ?? .other(kind: "", [])
        let at = callee.location ?? location(cursor)
        var arguments: [Call.Argument] = []
        for argument in node["args"]?["args"]?.arrayValue ?? [] {
            guard let value = argument["expr"], value.isExpression else { continue }
            let label = argument["label"]?.stringValue
            arguments.append(Call.Argument(label: label?.isEmpty == false ? label : nil, value: expression(value)))
        }
        return .call(Call(callee: callee, arguments: arguments, location: at))
    }

    private mutating func closure(_ node: JSONValue) -> Closure {
        let parameters = (node["params"]?["params"]?.arrayValue ?? []).map {
            $0["name"]?["base_name"]?["name"]?.stringValue ?? "_"
        }
        let body = node["body"]
        let (start, end) = range(body) ?? (cursor, cursor)
        return Closure(parameters: parameters, body: statements(body), location: location(start), end: location(end))
    }

    /// `"a\(x)b"`: the dump spells it as calls to `appendInterpolation` on a builder; the model keeps the
    /// interpolated expressions.
    private mutating func interpolatedString(_ node: JSONValue) -> Expression {
        let at = locate("\"")
        let appending = node["appending_expr"]?["body"]
        var parts: [Expression] = []
        withRange(appending) { builder in
            for element in appending?["elements"]?.arrayValue ?? [] where element.kind == "call_expr" {
                guard element["fn"]?["field"]?.stringValue == "appendInterpolation" else { continue }
                for argument in element["args"]?["args"]?.arrayValue ?? [] {
                    if let value = argument["expr"], value.isExpression { parts.append(builder.expression(value)) }
                }
            }
        }
        return .string("", interpolations: parts, at: at)
    }

    /// `appendLiteral(_:)` is `appendLiteral`.
    private func baseName(_ name: String) -> String {
        String(name.prefix { $0 != "(" })
    }

    private func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        return first == "_" || first == "$" || first.properties.isAlphabetic
    }
}

extension Expression {
    /// Where the expression starts, when the model knows.
    public var location: SourceLocation? {
        switch self {
        case .call(let call): call.location
        case .name(_, let at), .member(_, _, let at), .string(_, _, let at): at
        case .closure(let closure): closure.location
        case .assignment(let dest, _): dest.location
        case .tryExpression(let inner): inner.location
        case .other(_, let children): children.lazy.compactMap(\.location).first
        }
    }
}
