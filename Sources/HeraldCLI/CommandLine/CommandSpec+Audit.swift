extension CommandSpec {
    /// `herald audit PATH...`: check an app's notification code against Apple's rules.
    public static let audit = CommandSpec(
        name: "audit",
        summary: "Check an app's notification code against Apple's rules.",
        options: [
            OptionSpec("json", help: "Print the findings as JSON."),
            OptionSpec(
                "info-plist", valueName: "FILE",
                help: "The app's Info.plist (default: every Info.plist found under the paths)."),
            OptionSpec(
                "entitlements", valueName: "FILE",
                help: "The app's .entitlements (default: every .entitlements file found under the paths)."),
        ],
        positionals: [
            PositionalSpec("PATH...", help: "Swift files, or directories searched for them.", isVariadic: true)
        ],
        discussion: """
            The Swift is parsed by the toolchain's compiler (swiftc -frontend -dump-parse, no iOS SDK \
            needed; set HERALD_SWIFTC to choose one) and the rules read calls, closures and control \
            flow: a handler must be called on every path, not merely appear in the text. Each finding \
            is printed as 'file:line:column: severity RULE message' with its fix on the next line. The \
            rules are listed in docs/AUDIT-RULES.md.

            Directories are searched recursively, leaving out hidden ones and Pods, Carthage, \
            DerivedData, build and node_modules.

            Exit status:
              0  no errors: the code is clean or has only warnings and info
              1  at least one finding is an error, or the audit could not run (no swiftc)
              2  usage error: the command line is wrong
            """,
        examples: [
            "herald audit MyApp/",
            "herald audit --info-plist App/Info.plist --entitlements App/App.entitlements App Service",
            "herald audit --json MyApp | jq '.findings[] | select(.severity == \"error\")'",
        ]
    )
}
