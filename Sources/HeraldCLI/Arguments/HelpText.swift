// Renders a command's help: usage line, summary, arguments, options in two columns, discussion,
// examples. Every line fits in `helpLineWidth` columns; longer text is wrapped at spaces.

/// The widest line help text produces.
let helpLineWidth = 80

/// The help for one command, as printed by `herald <command> --help`.
public func helpText(for spec: CommandSpec, program: String = "herald") -> String {
    var sections = [wrapped(usageLine(for: spec, program: program)), wrapped(spec.summary)]

    if !spec.positionals.isEmpty {
        let rows = spec.positionals.map { (label: $0.name, help: $0.help) }
        sections.append("Arguments:\n" + columns(rows))
    }

    let helpOption = OptionSpec("help", short: "h", help: "Show this help.")
    let rows = (spec.options.filter(\.isShown) + [helpOption]).map { option in
        (label: optionLabel(option), help: option.help + optionNotes(option))
    }
    sections.append("Options:\n" + columns(rows))

    if let discussion = spec.discussion {
        sections.append(wrapped(discussion))
    }
    if !spec.examples.isEmpty {
        sections.append("Examples:\n" + spec.examples.map { "  " + $0 }.joined(separator: "\n"))
    }
    return sections.joined(separator: "\n\n") + "\n"
}

/// `usage: herald jwt --auth-key FILE ... [options] FILE`: required options spelled out, the rest
/// summarised as `[options]`, then positionals (optional ones in brackets).
func usageLine(for spec: CommandSpec, program: String) -> String {
    var words = ["usage:", program, spec.name]
    for option in spec.options where option.isRequired {
        words.append([option.displayName, option.valueName].compactMap { $0 }.joined(separator: " "))
    }
    if spec.options.contains(where: { !$0.isRequired }) {
        words.append("[options]")
    }
    for positional in spec.positionals {
        words.append(positional.isOptional ? "[\(positional.name)]" : positional.name)
    }
    return words.joined(separator: " ")
}

private func optionLabel(_ option: OptionSpec) -> String {
    let short = option.short.map { "-\($0), " } ?? "    "
    let value = option.valueName.map { " " + $0 } ?? ""
    return short + option.displayName + value
}

private func optionNotes(_ option: OptionSpec) -> String {
    var notes: [String] = []
    if option.isRequired { notes.append("required") }
    if option.isRepeatable { notes.append("repeatable") }
    if let variable = option.environmentVariable { notes.append("env \(variable)") }
    return notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")"
}

/// Two columns: labels indented by two, help aligned after the widest label (capped, so one long
/// label puts its help on the next line instead of pushing every row right).
func columns(_ rows: [(label: String, help: String)]) -> String {
    let indent = 2
    let gap = 2
    let labelWidth = min(rows.map(\.label.count).max() ?? 0, 28)
    let helpColumn = indent + labelWidth + gap
    let pad = String(repeating: " ", count: helpColumn)
    var lines: [String] = []
    for row in rows {
        let label = String(repeating: " ", count: indent) + row.label
        let helpLines = wrapLine(row.help, width: helpLineWidth - helpColumn)
        if row.label.count > labelWidth {
            lines.append(label)
            lines += helpLines.map { pad + $0 }
        } else {
            let first = label.paddedTo(helpColumn) + (helpLines.first ?? "")
            lines.append(first)
            lines += helpLines.dropFirst().map { pad + $0 }
        }
    }
    return lines.joined(separator: "\n")
}

/// Each line of `text` that is too long wrapped to `helpLineWidth`, keeping its leading indentation;
/// lines that fit are kept as written.
func wrapped(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
        if line.count <= helpLineWidth { return [String(line)] }
        let indent = String(line.prefix { $0 == " " })
        return wrapLine(String(line.dropFirst(indent.count)), width: helpLineWidth - indent.count)
            .map { indent + $0 }
    }.joined(separator: "\n")
}

/// Greedy word wrap at spaces; a word longer than `width` gets a line of its own.
func wrapLine(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
        if current.isEmpty {
            current = String(word)
        } else if current.count + 1 + word.count <= width {
            current += " " + word
        } else {
            lines.append(current)
            current = String(word)
        }
    }
    if !current.isEmpty || lines.isEmpty { lines.append(current) }
    return lines
}

extension String {
    fileprivate func paddedTo(_ length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
