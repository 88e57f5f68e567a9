import APNs

extension SyntaxBuilder {
    /// The statements of a brace statement (or of one statement that is not a brace).
    mutating func statements(_ node: JSONValue?) -> [Statement] {
        guard let node else { return [] }
        if node.kind != "brace_stmt" { return statement(node).map { [$0] } ?? [] }
        return withRange(node) { builder in
            (node["elements"]?.arrayValue ?? []).compactMap { builder.statement($0) }
        }
    }

    mutating func statement(_ node: JSONValue) -> Statement? {
        let kind = node.kind
        if kind.hasSuffix("_expr") || kind == "capture_list" { return .expression(expression(node)) }
        return withRange(node) { builder in builder.rangedStatement(node, kind: kind) }
    }

    private mutating func rangedStatement(_ node: JSONValue, kind: String) -> Statement? {
        let at = range(node).map { location($0.start) } ?? location(cursor)
        switch kind {
        case "brace_stmt":
            return .doCatch(body: statements(node), catches: [], at: at)
        case "pattern_binding_decl":
            var names: [String] = []
            var value: Expression?
            for entry in node["pattern_entries"]?.arrayValue ?? [] {
                names += patternNames(entry["pattern"])
                if let initializer = entry["original_init"], initializer.isExpression {
                    value = expression(initializer)
                }
            }
            return .binding(names: names, value: value, at: at)
        case "if_stmt":
            let conditions = self.conditions(node["conditions"])
            let then = statements(node["then_stmt"])
            let otherwise = node["else_stmt"].map { statements($0) }
            return .ifElse(conditions: conditions, then: then, else: otherwise, at: at)
        case "guard_stmt":
            let conditions = self.conditions(node["conditions"])
            return .guardElse(conditions: conditions, body: statements(node["body"]), at: at)
        case "switch_stmt":
            let subject = node["subject_expr"].map { expression($0) } ?? .other(kind: "", [])
            let cases = (node["cases"]?.arrayValue ?? []).map { caseNode in
                withRange(caseNode) { builder in builder.statements(caseNode["body"]) }
            }
            return .switchCases(subject: subject, cases: cases, at: at)
        case "for_each_stmt":
            let sequence = node["parsed_sequence"].map { [expression($0)] } ?? []
            return .loop(header: sequence, body: statements(node["body"]), atLeastOnce: false, at: at)
        case "while_stmt":
            let conditions = self.conditions(node["conditions"])
            return .loop(header: conditions, body: statements(node["body"]), atLeastOnce: false, at: at)
        case "repeat_while_stmt":
            let body = statements(node["body"])
            let condition = node["cond"].map { [expression($0)] } ?? []
            return .loop(header: condition, body: body, atLeastOnce: true, at: at)
        case "do_catch_stmt", "do_stmt":
            let body = statements(node["body"])
            let catches = (node["catch_stmts"]?.arrayValue ?? []).map { catchNode in
                withRange(catchNode) { builder in builder.statements(catchNode["body"]) }
            }
            return .doCatch(body: body, catches: catches, at: at)
        case "return_stmt":
            return .returnStatement(node["result"].flatMap { $0.isExpression ? expression($0) : nil }, at: at)
        case "throw_stmt":
            return .throwStatement(node["sub_expr"].map { expression($0) }, at: at)
        case "break_stmt":
            return .breakStatement(at: at)
        case "continue_stmt":
            return .continueStatement(at: at)
        case "defer_stmt":
            return .deferBlock(statements(node["temp_decl"]?["body"]), at: at)
        case "func_decl":
            return function(node).map { .function($0) }
        default:
            return nil
        }
    }

    /// An `if`/`guard`/`while` condition list: expressions, and `let x = value` bindings as
    /// `other("condition_binding", [name, value])`.
    private mutating func conditions(_ node: JSONValue?) -> [Expression] {
        (node?.arrayValue ?? []).compactMap { condition in
            if condition.kind == "pattern" {
                guard let initializer = condition["initializer"], initializer.isExpression else { return nil }
                let names = patternNames(condition["pattern"]).map { Expression.name($0, at: location(cursor)) }
                return .other(kind: "condition_binding", names + [expression(initializer)])
            }
            return condition.isExpression ? expression(condition) : nil
        }
    }

    func patternNames(_ node: JSONValue?) -> [String] {
        guard let node else { return [] }
        if node.kind == "pattern_named",
            let name = node["name"]?["base_name"]?["name"]?.stringValue ?? node["name"]?.stringValue
        {
            return [name]
        }
        var names: [String] = []
        for member in node.objectValue ?? JSONObject() where member.key != "_kind" {
            if member.value.objectValue != nil { names += patternNames(member.value) }
            for element in member.value.arrayValue ?? [] { names += patternNames(element) }
        }
        return names
    }
}

extension JSONValue {
    /// Whether the node is an expression the builder can read (not `<null expr>`).
    var isExpression: Bool {
        let kind = self.kind
        return (kind.hasSuffix("_expr") || kind == "capture_list") && kind != "<null expr>"
    }
}
