import Foundation
import HeraldCLI
import Testing

/// docs/GETTING-STARTED.md stays runnable: every `herald` command line in its shell blocks parses
/// with today's flags (a renamed or removed flag fails here, not in a reader's terminal).
@Suite(.timeLimit(.minutes(1)))
struct GettingStartedCommandsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let token = String(repeating: "ab", count: 32)

    /// The `herald ...` commands of the guide's ```sh blocks, continuation lines joined, as arguments.
    static func commands() throws -> [[String]] {
        let guide = try String(contentsOf: root.appendingPathComponent("docs/GETTING-STARTED.md"), encoding: .utf8)
        var commands: [[String]] = []
        var inShell = false
        var pending = ""
        for line in guide.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                inShell = line == "```sh"
                continue
            }
            guard inShell, !line.hasPrefix("#") else { continue }
            pending += line.trimmingCharacters(in: .whitespaces)
            if pending.hasSuffix("\\") {
                pending = String(pending.dropLast()) + " "
                continue
            }
            var text = pending
            pending = ""
            if let start = text.range(of: "$(herald ") {  // token=$(herald device register ...)
                text = String(text[text.index(start.lowerBound, offsetBy: 2)...].dropLast())
            }
            guard text.hasPrefix("herald ") else { continue }
            if text.hasSuffix(" &") { text = String(text.dropLast(2)) }
            text = text.replacingOccurrences(of: "880762a3…0b75", with: token)
                .replacingOccurrences(of: "\"$token\"", with: token)
            commands.append(Array(split(text).dropFirst()))
        }
        return commands
    }

    /// Words as the shell splits these lines: on spaces, with "double quotes" grouping.
    static func split(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
            } else if character == " " && !quoted {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    @Test func theGuideHasItsCommands() throws {
        let commands = try Self.commands()
        #expect(commands.count >= 6, "send, send --dry-run, emulator, device register, send, device listen")
        #expect(commands.contains { $0.first == "emulator" })
        #expect(commands.contains { $0.first == "device" && $0.contains("listen") })
    }

    @Test func everyCommandOfTheGuideParses() throws {
        for arguments in try Self.commands() {
            do {
                let command = try parseCommandLine(arguments)
                if case .help = command { Issue.record("\(arguments) only asks for help") }
            } catch {
                Issue.record("herald \(arguments.joined(separator: " ")): \(error)")
            }
        }
    }
}
