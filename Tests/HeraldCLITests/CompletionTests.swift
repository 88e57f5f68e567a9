import Foundation
import HeraldCLI
import HeraldTestSupport
import Testing

/// `herald completion bash|zsh|fish`: generated from the command specs, so every command and every
/// shown option is offered, and a hidden alias never is.
@Suite(.timeLimit(.minutes(1)))
struct CompletionTests {
    func script(_ shell: String) async -> String {
        let process = FakeProcess()
        #expect(await process.run(["completion", shell]) == 0)
        return process.stdout
    }

    @Test(arguments: CompletionShell.allCases)
    func everyCommandAndShownOptionIsNamed(_ shell: CompletionShell) async {
        let text = await script(shell.rawValue)
        for command in CommandSpec.heraldCommands {
            #expect(text.contains(command.name), "\(shell) lacks \(command.name)")
            for option in command.options where option.isShown {
                let spelled = shell == .fish ? "-l \(option.name)" : "--\(option.name)"
                #expect(text.contains(spelled), "\(shell) lacks \(command.name) \(spelled)")
            }
        }
        #expect(!text.contains("--bundle-id") && !text.contains("-l bundle"), "hidden aliases are not offered")
    }

    @Test func anUnknownShellIsAUsageError() async {
        let process = FakeProcess()
        #expect(await process.run(["completion", "tcsh"]) == 2)
        #expect(process.stderr.hasPrefix("herald completion: SHELL must be bash, zsh or fish (got 'tcsh')"))
    }

    /// bash reads the script, and completing words gives the commands and a command's options.
    @Test func bashAcceptsTheScriptAndCompletes() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { return }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("herald-\(UUID().uuidString).bash")
            .path
        try Data(await script("bash").utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        func bash(_ command: String) throws -> (Int32, String) {
            let process = try ChildProcess(
                "/bin/bash", ["--norc", "--noprofile", "-c", command], stdin: .null, stderr: .inherit)
            let status = process.waitUntilExit()
            return (status, String(decoding: process.waitForCapturedOutput(), as: UTF8.self))
        }
        #expect(try bash("bash -n '\(path)'").0 == 0, "bash -n accepts the script")
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let (status, text) = try bash(
                "source '\(path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _herald; "
                    + #"printf '%s\n' "${COMPREPLY[@]}""#)
            #expect(status == 0)
            return text.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["herald", "si"]) == ["simulator-file"])
        #expect(try complete(["herald", "send", "--auth"]) == ["--auth-key"])
        #expect(try complete(["herald", "channels", "--to"]) == ["--topic"])
        #expect(try complete(["herald", "device", "--cou"]) == ["--count"])
        // Positionals that name an action complete to their words, counted past options and values.
        #expect(try complete(["herald", "gateway", "k"]) == ["key"])
        #expect(try complete(["herald", "gateway", "key", "re"]) == ["revoke"])
        #expect(try complete(["herald", "gateway", "--data-dir", "d", "devices", "i"]) == ["import"])
        #expect(try complete(["herald", "device", "r"]) == ["register", "run"])
        #expect(try complete(["herald", "completion", "z"]) == ["zsh"])
    }
}
