import HeraldCLI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct HelpTextTests {
    static let topics: [String?] = [nil] + CommandSpec.heraldCommands.map(\.name)

    @Test(.timeLimit(.minutes(1)), arguments: CommandSpec.heraldCommands.map(\.name))
    func commandHelpNamesEveryOptionAndArgument(_ name: String) throws {
        let spec = try #require(CommandSpec.heraldCommands.first { $0.name == name })
        let text = helpText(forTopic: spec.name)
        #expect(text == helpText(for: spec))
        #expect(text.hasPrefix("usage: herald \(spec.name)"))
        #expect(text.contains(spec.summary))
        #expect(text.contains("-h, --help"))
        for option in spec.options where option.isShown {
            let label = ["--" + option.name, option.valueName].compactMap { $0 }.joined(separator: " ")
            #expect(text.contains(label), "\(spec.name) help lacks \(label)")
            if let short = option.short {
                #expect(text.contains("-\(short), --\(option.name)"))
            }
        }
        for positional in spec.positionals {
            #expect(text.contains(positional.name))
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: topics)
    func linesStayUnderOneHundredColumns(_ topic: String?) {
        for line in helpText(forTopic: topic).split(separator: "\n") {
            #expect(line.count < 100, "too long: \(line)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func overviewListsEveryCommandWithItsSummary() {
        let text = helpText(forTopic: nil)
        #expect(text.hasPrefix("usage: herald"))
        #expect(text.contains("--version"))
        for spec in CommandSpec.heraldCommands {
            #expect(text.contains(spec.name))
            #expect(text.contains(spec.summary.prefix(30)))
        }
        #expect(helpText(forTopic: "no-such-command") == text)
    }

    @Test(.timeLimit(.minutes(1)))
    func lintHelpExplainsExitStatusAndInference() {
        let text = helpText(forTopic: "lint")
        #expect(text.contains("Exit status"))
        for status in ["0", "1", "2"] {
            #expect(text.contains("  \(status)  "))
        }
        #expect(text.contains("inferred from the payload"))
    }

    @Test(.timeLimit(.minutes(1)))
    func usageLineSpellsOutRequiredOptions() {
        let usage = helpText(forTopic: "jwt").split(separator: "\n").first
        #expect(usage == "usage: herald jwt --auth-key FILE --key-id KEY_ID --team-id TEAM_ID [options]")
        #expect(helpText(forTopic: "help").hasPrefix("usage: herald help [COMMAND]\n"))
    }

    @Test(.timeLimit(.minutes(1)))
    func longHelpWrapsUnderTheHelpColumn() {
        let spec = CommandSpec(
            name: "demo",
            summary: "Demo.",
            options: [
                OptionSpec("a-very-long-option-name-indeed", valueName: "SOME_VALUE", help: "Short help."),
                OptionSpec("x", help: String(repeating: "word ", count: 40)),
            ]
        )
        let lines = helpText(for: spec, program: "tool").split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines.contains("      --a-very-long-option-name-indeed SOME_VALUE"))
        #expect(lines.filter { $0.contains("word") }.count > 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func versionIsSemantic() {
        #expect(heraldVersion.split(separator: ".").count == 3)
        #expect(heraldVersion.split(separator: ".").allSatisfy { Int($0) != nil })
    }
}
