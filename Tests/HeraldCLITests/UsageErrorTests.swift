import HeraldCLI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct UsageErrorTests {
    static let descriptions: [(UsageError, String)] = [
        (.unknownOption("--prio", suggestion: "--priority"), "unknown option '--prio' (did you mean '--priority'?)"),
        (.unknownOption("--frob", suggestion: nil), "unknown option '--frob'"),
        (.unknownCommand("lnt", suggestion: "lint"), "unknown command 'lnt' (did you mean 'lint'?)"),
        (.unknownCommand("send", suggestion: nil), "unknown command 'send'"),
        (.missingValue(option: "--key-id", valueName: "KEY_ID"), "--key-id needs a value (KEY_ID)"),
        (.duplicateOption("--topic"), "--topic given twice"),
        (.flagWithValue("--json"), "--json is a flag and takes no value"),
        (.missingOption("--team-id"), "missing required option --team-id"),
        (.missingArgument("FILE"), "missing argument FILE"),
        (.unexpectedArgument("extra"), "unexpected argument 'extra'"),
        (
            .invalidValue(option: "--issued-at", value: "abc", rule: "must be a non-negative integer"),
            "--issued-at must be a non-negative integer (got 'abc')"
        ),
        (.invalidValue(option: "--cert-password", value: nil, rule: "is too long"), "--cert-password is too long"),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: descriptions)
    func describesItselfInOneLine(_ error: UsageError, expected: String) {
        #expect(error.description == expected)
        #expect(!error.description.contains("\n"))
    }

    @Test(.timeLimit(.minutes(1)))
    func invalidValueOfASecretOptionDropsTheValue() {
        let secret = OptionSpec("cert-password", valueName: "PASSWORD", help: "", isSecret: true)
        let plain = OptionSpec("issued-at", valueName: "UNIX_TIME", help: "")
        #expect(
            UsageError.invalidValue(of: secret, value: "hunter2", rule: "is too long")
                == .invalidValue(option: "--cert-password", value: nil, rule: "is too long"))
        #expect(
            UsageError.invalidValue(of: plain, value: "x", rule: "must be a number")
                == .invalidValue(option: "--issued-at", value: "x", rule: "must be a number"))
    }
}
