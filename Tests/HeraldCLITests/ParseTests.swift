import HeraldCLI
import Testing

/// The generic parser, against a spec that uses every feature Herald's own commands do and more.
@Suite(.timeLimit(.minutes(1)))
struct ParseTests {
    static let spec = CommandSpec(
        name: "send",
        summary: "Send a test notification.",
        options: [
            OptionSpec("header", valueName: "NAME:VALUE", help: "An extra header.", isRepeatable: true),
            OptionSpec("verbose", short: "v", help: "Say more.", isRepeatable: true),
            OptionSpec("dry-run", short: "n", help: "Do not send."),
            OptionSpec("output", short: "o", valueName: "FILE", help: "Where to write."),
            OptionSpec("cert-password", valueName: "PASSWORD", help: "The PKCS#12 password.", isSecret: true),
            OptionSpec("token", valueName: "HEX", help: "The device token.", isRequired: true),
        ],
        positionals: [
            PositionalSpec("PAYLOAD", help: "The payload, or - for standard input."),
            PositionalSpec("TOPIC", help: "The topic.", isOptional: true),
        ]
    )

    static let valid: [([String], ParsedArguments)] = [
        (["--token", "ab", "p.json"], ParsedArguments(values: ["token": ["ab"]], positionals: ["p.json"])),
        (
            ["p.json", "--token=ab", "topic"],
            ParsedArguments(values: ["token": ["ab"]], positionals: ["p.json", "topic"])
        ),
        (["-", "--token", "ab"], ParsedArguments(values: ["token": ["ab"]], positionals: ["-"])),
        (
            ["--header", "a:1", "--token", "t", "--header=b:2", "--header", "a:3", "p"],
            ParsedArguments(values: ["header": ["a:1", "b:2", "a:3"], "token": ["t"]], positionals: ["p"])
        ),
        (
            ["-v", "--verbose", "-n", "-o", "out", "--token", "t", "p"],
            ParsedArguments(
                flags: ["verbose", "dry-run"], values: ["output": ["out"], "token": ["t"]], positionals: ["p"])
        ),
        (
            ["-o=out", "--token", "t", "p"],
            ParsedArguments(values: ["output": ["out"], "token": ["t"]], positionals: ["p"])
        ),
        // A value may start with a dash unless it names an option.
        (["--token", "-1", "p"], ParsedArguments(values: ["token": ["-1"]], positionals: ["p"])),
        (["--token", "-", "p"], ParsedArguments(values: ["token": ["-"]], positionals: ["p"])),
        (
            ["--token", "t", "--", "-v", "--token"],
            ParsedArguments(values: ["token": ["t"]], positionals: ["-v", "--token"])
        ),
        (["--token", "t", "--", "p", "--"], ParsedArguments(values: ["token": ["t"]], positionals: ["p", "--"])),
        (["--help"], ParsedArguments(isHelpRequested: true)),
        (["p", "q", "r", "--unknown", "-h"], ParsedArguments(isHelpRequested: true)),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: valid)
    func parsesValidArguments(_ arguments: [String], expected: ParsedArguments) throws {
        #expect(try parse(arguments, as: Self.spec) == expected)
    }

    static let invalid: [([String], UsageError)] = [
        (["--tokn", "t", "p"], .unknownOption("--tokn", suggestion: "--token")),
        (["--head", "x", "p"], .unknownOption("--head", suggestion: "--header")),
        (["--dryrun", "p"], .unknownOption("--dryrun", suggestion: "--dry-run")),
        (
            ["--cert-password=hunter2", "--token", "t", "--cert-pasword=hunter2", "p"],
            .unknownOption("--cert-pasword", suggestion: "--cert-password")
        ),
        (["--token", "t", "-n", "--dry-run", "p"], .duplicateOption("--dry-run")),
        (["--token", "t", "-o", "a", "--output=b", "p"], .duplicateOption("--output")),
        (["--token", "t", "--dry-run=yes", "p"], .flagWithValue("--dry-run")),
        (["--token", "t", "-n=1", "p"], .flagWithValue("--dry-run")),
        (["--token", "-v", "p"], .missingValue(option: "--token", valueName: "HEX")),
        (["--token", "t", "-o", "-n", "p"], .missingValue(option: "--output", valueName: "FILE")),
        (["--token", "t"], .missingArgument("PAYLOAD")),
        (["p"], .missingOption("--token")),
        (["--token", "t", "p", "topic", "more"], .unexpectedArgument("more")),
        (["--token", "t", "--", "p", "topic", "-h"], .unexpectedArgument("-h")),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: invalid)
    func rejectsInvalidArguments(_ arguments: [String], expected: UsageError) {
        #expect(throws: expected) { try parse(arguments, as: Self.spec) }
    }

    @Test(.timeLimit(.minutes(1)))
    func accessorsReadParsedValues() throws {
        let parsed = try parse(["-v", "--header", "a:1", "--header", "b:2", "--token", "t", "p"], as: Self.spec)
        #expect(parsed.flag("verbose"))
        #expect(!parsed.flag("dry-run"))
        #expect(parsed.value("token") == "t")
        #expect(parsed.value("output") == nil)
        #expect(parsed.values("header") == ["a:1", "b:2"])
        #expect(parsed.values("output") == [])
        #expect(try parsed.requiredValue("token") == "t")
        #expect(throws: UsageError.missingOption("--output")) { try parsed.requiredValue("output") }
        #expect(try parsed.positional(0, named: "PAYLOAD") == "p")
        #expect(throws: UsageError.missingArgument("TOPIC")) { try parsed.positional(1, named: "TOPIC") }
    }

    @Test(.timeLimit(.minutes(1)))
    func errorsNeverEchoOptionValues() {
        let cases: [[String]] = [
            ["--cert-password=hunter2", "--cert-password=hunter2", "--token", "t", "p"],
            ["--cert-pasword=hunter2", "--token", "t", "p"],
            ["--dry-run=hunter2", "--token", "t", "p"],
        ]
        for arguments in cases {
            do {
                _ = try parse(arguments, as: Self.spec)
                Issue.record("expected a usage error for \(arguments.count) arguments")
            } catch {
                #expect(!error.description.contains("hunter2"))
            }
        }
    }
}
