/// Where an expression sits: inside which closures, under which conditions.
struct WalkContext {
    /// The calls whose closure arguments enclose the expression, outermost first; nil for a closure
    /// that is not an argument (bound to a name, stored).
    var closureOwners: [Call?] = []
    /// The `if` conditions above the expression, and the `guard` conditions before it in its blocks.
    var conditions: [Expression] = []

    var isInClosure: Bool { !closureOwners.isEmpty }
}

/// Calls `visit` on every expression of `statements` and everything nested in them, closures
/// included, with the context each is in.
func walk(_ statements: [Statement], _ context: WalkContext, _ visit: (Expression, WalkContext) -> Void) {
    var context = context
    for statement in statements {
        switch statement {
        case .guardElse(let conditions, let body, _):
            for condition in conditions { walk(condition, context, visit) }
            walk(body, context, visit)
            context.conditions += conditions
        case .ifElse(let conditions, let then, let otherwise, _):
            for condition in conditions { walk(condition, context, visit) }
            var inner = context
            inner.conditions += conditions
            walk(then, inner, visit)
            if let otherwise { walk(otherwise, inner, visit) }
        case .function:
            continue
        default:
            for expression in statement.expressions { walk(expression, context, visit) }
            for block in statement.blocks { walk(block, context, visit) }
        }
    }
}

func walk(_ expression: Expression, _ context: WalkContext, _ visit: (Expression, WalkContext) -> Void) {
    visit(expression, context)
    switch expression {
    case .call(let call):
        walk(call.callee, context, visit)
        for argument in call.arguments {
            if case .closure(let closure) = argument.value {
                var inner = context
                inner.closureOwners.append(call)
                visit(argument.value, inner)
                walk(closure.body, inner, visit)
            } else {
                walk(argument.value, context, visit)
            }
        }
    case .closure(let closure):
        var inner = context
        inner.closureOwners.append(nil)
        walk(closure.body, inner, visit)
    case .member(let base?, _, _): walk(base, context, visit)
    case .member, .name: break
    case .string(_, let parts, _): for part in parts { walk(part, context, visit) }
    case .assignment(let dest, let source):
        walk(dest, context, visit)
        walk(source, context, visit)
    case .tryExpression(let inner): walk(inner, context, visit)
    case .other(_, let children): for child in children { walk(child, context, visit) }
    }
}
