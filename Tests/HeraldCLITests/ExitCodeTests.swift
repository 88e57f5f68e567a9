import HeraldCLI
import Testing

/// One exit-code rule in every command: 0 done, 1 the work failed, 2 the command line was wrong.
/// The same kind of mistake exits the same way whichever command it is made in.
@Suite(.timeLimit(.minutes(1)))
struct ExitCodeTests {
    static let token = String(repeating: "ab", count: 32)
    static let auth = ["--auth-key", "k.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]
    static let badKeyID = ["--auth-key", "k.p8", "--key-id", "short", "--team-id", "DEF123GHIJ"]

    static let cases: [(kind: String, arguments: [String], status: Int32)] = [
        // A device token that is not hexadecimal, on the command line.
        ("token", ["send", "-t", "xyz", "--topic", "a.b", "--alert", "x"] + auth, 2),
        ("token", ["device", "listen", "xyz"], 2),
        // A bundle id that is not one.
        ("bundle id", ["channels", "list", "--topic", "a b"] + auth, 2),
        ("bundle id", ["simulator-file", "--topic", "a b", "p.json"], 2),
        ("bundle id", ["emulator", "--topic", "a b", "--plaintext"], 2),
        ("bundle id", ["device", "register", "--topic", "a b"], 2),
        // A key id that is not 10 letters or digits.
        ("key id", ["send", "-t", token, "--topic", "a.b", "--alert", "x"] + badKeyID, 2),
        ("key id", ["channels", "list", "--topic", "a.b"] + badKeyID, 2),
        ("key id", ["jwt"] + badKeyID, 2),
        ("key id", ["emulator", "--plaintext"] + badKeyID, 2),
        // An option the command does not have.
        ("unknown option", ["send", "--nope"], 2),
        ("unknown option", ["device", "listen", token, "--nope"], 2),
        ("unknown option", ["lint", "--nope", "p.json"], 2),
        // A file named on the command line that cannot be read: the work failed.
        ("unreadable file", ["lint", "nope.json"], 1),
        ("unreadable file", ["simulator-file", "--topic", "a.b", "nope.json"], 1),
        ("unreadable file", ["jwt", "--auth-key", "nope.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"], 1),
        (
            "unreadable file",
            [
                "send", "-t", token, "--topic", "a.b", "--alert", "x", "--auth-key", "nope.p8",
                "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ",
            ], 1
        ),
        (
            "unreadable file",
            [
                "send", "-t", token, "--topic", "a.b", "--alert", "x", "--ca-file", "nope.pem",
                "--endpoint", "https://localhost:1",
            ] + auth, 1
        ),
        // Old names of --topic still work.
        ("alias", ["simulator-file", "--bundle", "com.example.app", "p.json"], 0),
    ]

    @Test(arguments: cases)
    func sameMistakeSameStatus(_ kind: String, _ arguments: [String], _ status: Int32) async {
        let process = FakeProcess(files: ["k.p8": SendCommandTests.key, "p.json": #"{"aps":{"alert":"x"}}"#])
        #expect(await process.run(arguments) == status, "\(kind): \(arguments) -> \(process.stderr)")
        if status != 0 { #expect(process.stderr.split(separator: "\n").count == 1, "\(process.stderr)") }
    }

    /// The bundle id is --topic in every command that takes one; the old names are accepted but
    /// shown nowhere.
    @Test func oneNameForTheBundleID() throws {
        for command in CommandSpec.heraldCommands {
            let shown = command.options.filter(\.isShown).map(\.name)
            #expect(!shown.contains("bundle") && !shown.contains("bundle-id"), "\(command.name)")
            #expect(!helpText(forTopic: command.name).contains("--bundle"), "\(command.name)")
        }
        #expect(
            try parseCommandLine(["channels", "list", "--bundle-id", "a.b"] + Self.auth)
                == parseCommandLine(["channels", "list", "--topic", "a.b"] + Self.auth))
        #expect(
            try parseCommandLine(["simulator-file", "--bundle", "a.b", "p.json"])
                == parseCommandLine(["simulator-file", "--topic", "a.b", "p.json"]))
    }
}
