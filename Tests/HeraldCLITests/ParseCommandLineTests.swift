import HeraldCLI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ParseCommandLineTests {
    static let valid: [([String], Command)] = [
        ([], .help(topic: nil)),
        (["--help"], .help(topic: nil)),
        (["-h"], .help(topic: nil)),
        (["help"], .help(topic: nil)),
        (["help", "lint"], .help(topic: "lint")),
        (["--help", "jwt"], .help(topic: "jwt")),
        (["help", "--help"], .help(topic: "help")),
        (["lint", "--help"], .help(topic: "lint")),
        (["lint", "-h"], .help(topic: "lint")),
        (["jwt", "--help"], .help(topic: "jwt")),
        (["jwt", "--key-id", "ABC123DEFG", "-h"], .help(topic: "jwt")),
        (["lint", "--bogus", "--help"], .help(topic: "lint")),
        (["simulator-file", "--help", "extra", "args"], .help(topic: "simulator-file")),
        (["version", "--help"], .help(topic: "version")),
        (["--version"], .version),
        (["version"], .version),
        (["lint", "payload.json"], .lint(LintOptions(input: "payload.json"))),
        (["lint", "-"], .lint(LintOptions(input: "-"))),
        (["lint", "--json", "-"], .lint(LintOptions(input: "-", json: true))),
        (
            [
                "lint", "--type", "background", "--topic=com.example.app", "--priority", "5", "--collapse-id", "c1",
                "--expiration", "0", "--token", "abcd", "--apns-id", "123e4567-e89b-12d3-a456-426614174000",
                "--simulator", "--broadcast", "--json", "p.apns",
            ],
            .lint(
                LintOptions(
                    input: "p.apns", pushType: "background", topic: "com.example.app", priority: "5",
                    collapseID: "c1", expiration: "0", token: "abcd",
                    apnsID: "123e4567-e89b-12d3-a456-426614174000", simulator: true, broadcast: true, json: true))
        ),
        // Header values stay raw: the linter judges them.
        (
            ["lint", "--priority", "7", "--expiration", "-1", "x"],
            .lint(LintOptions(input: "x", priority: "7", expiration: "-1"))
        ),
        // -t is the token wherever a command takes one, as on send.
        (["lint", "-t", "abcd", "x"], .lint(LintOptions(input: "x", token: "abcd"))),
        (["lint", "--topic=", "x"], .lint(LintOptions(input: "x", topic: ""))),
        (["lint", "--topic=--odd", "x"], .lint(LintOptions(input: "x", topic: "--odd"))),
        (["lint", "--topic", "a=b", "x"], .lint(LintOptions(input: "x", topic: "a=b"))),
        (["lint", "--", "--help"], .lint(LintOptions(input: "--help"))),
        (["lint", "--json", "--", "-"], .lint(LintOptions(input: "-", json: true))),
        (["lint", "--", "--json"], .lint(LintOptions(input: "--json"))),
        (
            ["jwt", "--auth-key", "AuthKey.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"],
            .jwt(JWTOptions(authKeyPath: "AuthKey.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ"))
        ),
        (
            ["jwt", "--team-id=DEF123GHIJ", "--issued-at", "1700000000", "--key-id=ABC123DEFG", "--auth-key=k.p8"],
            .jwt(JWTOptions(authKeyPath: "k.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: 1_700_000_000))
        ),
        (
            ["jwt", "--auth-key", "k.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ", "--issued-at=0"],
            .jwt(JWTOptions(authKeyPath: "k.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: 0))
        ),
        (
            ["simulator-file", "--bundle", "com.example.app", "payload.json"],
            .simulatorFile(SimulatorFileOptions(input: "payload.json", bundle: "com.example.app"))
        ),
        (
            ["simulator-file", "-", "--bundle=com.example.app", "-o", "out.apns"],
            .simulatorFile(SimulatorFileOptions(input: "-", bundle: "com.example.app", output: "out.apns"))
        ),
        (
            ["simulator-file", "--output", "out.apns", "--bundle", "b", "--", "-o"],
            .simulatorFile(SimulatorFileOptions(input: "-o", bundle: "b", output: "out.apns"))
        ),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: valid)
    func parsesValidCommandLine(_ arguments: [String], expected: Command) throws {
        #expect(try parseCommandLine(arguments) == expected)
    }

    static let invalid: [([String], UsageError)] = [
        (["lnt", "x"], .unknownCommand("lnt", suggestion: "lint")),
        (["simulator"], .unknownCommand("simulator", suggestion: "simulator-file")),
        (["jtw"], .unknownCommand("jtw", suggestion: "jwt")),
        (["push"], .unknownCommand("push", suggestion: nil)),
        (["-"], .unknownCommand("-", suggestion: nil)),
        (["help", "lnit"], .unknownCommand("lnit", suggestion: "lint")),
        (["help", "lint", "jwt"], .unexpectedArgument("jwt")),
        (["--verison"], .unknownOption("--verison", suggestion: "--version")),
        (["-v"], .unknownOption("-v", suggestion: "--version")),
        (["--version=2"], .flagWithValue("--version")),
        (["--help=lint"], .flagWithValue("--help")),
        (["version", "now"], .unexpectedArgument("now")),
        (["lint", "--prio", "5", "x"], .unknownOption("--prio", suggestion: "--priority")),
        (["lint", "--topc", "t", "x"], .unknownOption("--topc", suggestion: "--topic")),
        (["lint", "--colapse-id", "c", "x"], .unknownOption("--colapse-id", suggestion: "--collapse-id")),
        (["lint", "-topic", "t", "x"], .unknownOption("-topic", suggestion: "--topic")),
        (["lint", "--hlep"], .unknownOption("--hlep", suggestion: "--help")),
        (["lint", "--frobnicate", "x"], .unknownOption("--frobnicate", suggestion: nil)),
        (["lint", "--bundle=b", "x"], .unknownOption("--bundle", suggestion: nil)),
        (["lint", "-x", "x"], .unknownOption("-x", suggestion: nil)),
        (["lint", "--json=1", "x"], .flagWithValue("--json")),
        (["lint", "--help=yes", "x"], .flagWithValue("--help")),
        (["lint", "--topic"], .missingValue(option: "--topic", valueName: "TOPIC")),
        (["lint", "--topic", "--json", "x"], .missingValue(option: "--topic", valueName: "TOPIC")),
        (["lint", "--topic", "--", "x"], .missingValue(option: "--topic", valueName: "TOPIC")),
        (["lint", "--topic", "a", "--topic", "b", "x"], .duplicateOption("--topic")),
        (["lint", "--json", "--json", "x"], .duplicateOption("--json")),
        (["lint"], .missingArgument("FILE")),
        (["lint", "--json"], .missingArgument("FILE")),
        (["lint", "a.json", "b.json"], .unexpectedArgument("b.json")),
        (["lint", "a.json", "--", "-"], .unexpectedArgument("-")),
        (["jwt", "--key-id"], .missingValue(option: "--key-id", valueName: "KEY_ID")),
        (["jwt", "--key-id", "--team-id", "DEF123GHIJ"], .missingValue(option: "--key-id", valueName: "KEY_ID")),
        (["jwt", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"], .missingOption("--auth-key (or HERALD_AUTH_KEY)")),
        (["jwt", "--auth-key", "k.p8", "--team-id", "DEF123GHIJ"], .missingOption("--key-id (or HERALD_KEY_ID)")),
        (["jwt", "--auth-key", "k.p8", "--key-id", "ABC123DEFG"], .missingOption("--team-id (or HERALD_TEAM_ID)")),
        (["jwt", "--auth-key", "k.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ", "extra"], .unexpectedArgument("extra")),
        (
            ["jwt", "--auth-key", "a.p8", "--auth-key", "b.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"],
            .duplicateOption("--auth-key")
        ),
        (["simulator-file", "p.json"], .missingOption("--topic")),
        (["simulator-file", "--bundle", "b"], .missingArgument("FILE")),
        (["simulator-file", "--bundle", "b", "-o"], .missingValue(option: "--output", valueName: "FILE")),
        (["simulator-file", "--bundle", "b", "-o", "x", "--output", "y", "p"], .duplicateOption("--output")),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: invalid)
    func rejectsInvalidCommandLine(_ arguments: [String], expected: UsageError) {
        #expect(usageError(arguments) == expected)
    }

    static let badIssuedAt = ["abc", "-1", "+5", "1.5", " 1", "", "1e9", "99999999999999999999999"]

    @Test(.timeLimit(.minutes(1)), arguments: badIssuedAt)
    func rejectsIssuedAtThatIsNotANonNegativeInteger(_ value: String) {
        let arguments = ["jwt", "--auth-key", "k.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ", "--issued-at=\(value)"]
        let error = usageError(arguments)
        #expect(error == .invalidValue(option: "--issued-at", value: value, rule: "must be a non-negative integer"))
        #expect(error?.description.hasPrefix("--issued-at must be a non-negative integer") == true)
    }

    private func usageError(_ arguments: [String]) -> UsageError? {
        do {
            _ = try parseCommandLine(arguments)
            return nil
        } catch {
            return error
        }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct EnvironmentTests {
    @Test func environmentFillsAbsentOptions() throws {
        let environment = ["HERALD_AUTH_KEY": "k.p8", "HERALD_KEY_ID": "ABC123DEFG", "HERALD_TEAM_ID": "DEF123GHIJ"]
        #expect(try parseCommandLine(["jwt"], environment: environment)
            == .jwt(JWTOptions(authKeyPath: "k.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ")))
    }

    @Test func flagsWinOverEnvironment() throws {
        let environment = ["HERALD_AUTH_KEY": "k.p8", "HERALD_KEY_ID": "ABC123DEFG", "HERALD_TEAM_ID": "DEF123GHIJ"]
        #expect(try parseCommandLine(["jwt", "--key-id", "ZZZ999ZZZZ"], environment: environment)
            == .jwt(JWTOptions(authKeyPath: "k.p8", keyID: "ZZZ999ZZZZ", teamID: "DEF123GHIJ")))
    }

    @Test func emptyVariablesCountAsAbsent() {
        #expect(throws: UsageError.missingOption("--auth-key (or HERALD_AUTH_KEY)")) {
            try parseCommandLine(["jwt", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"], environment: ["HERALD_AUTH_KEY": ""])
        }
    }

    @Test func helpNamesTheVariables() {
        let text = helpText(forTopic: "jwt")
        #expect(text.contains("HERALD_AUTH_KEY") && text.contains("HERALD_KEY_ID") && text.contains("HERALD_TEAM_ID"))
    }
}
