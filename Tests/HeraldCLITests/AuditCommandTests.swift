import APNs
import Foundation
import HeraldCLI
import Synchronization
import Testing

/// `herald audit`: the command line, the printed findings and exit statuses, and its JSON against
/// docs/JSON.md. The apps are the audit corpus (Tests/AuditTests/Corpus).
@Suite(.timeLimit(.minutes(2)))
struct AuditCommandTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("AuditTests/Corpus").path

    /// Runs `herald` with the test process's environment (swiftc is found on its PATH).
    static func herald(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> (status: Int32, stdout: String, stderr: String) {
        let output = Mutex("")
        let errors = Mutex("")
        let context = CommandContext(
            standardOutput: { text in output.withLock { $0 += text } },
            standardError: { text in errors.withLock { $0 += text } },
            readStandardInput: { () throws(InputError) in [] },
            readFile: { (path: String) throws(InputError) in throw InputError("cannot read '\(path)'") },
            writeFile: { (_: String, _: [UInt8]) throws(InputError) in }, now: { 0 }, environment: environment)
        let status = await runHerald(arguments, context: context)
        return (status, output.withLock { $0 }, errors.withLock { $0 })
    }

    @Test func theCommandLineTakesPathsAndFiles() throws {
        #expect(
            try parseCommandLine([
                "audit", "App", "Extension/Service.swift", "--json", "--info-plist", "App/Info.plist",
            ])
                == .audit(
                    AuditOptions(paths: ["App", "Extension/Service.swift"], infoPlist: "App/Info.plist", json: true)))
        #expect(
            try parseCommandLine(["audit", "--entitlements", "App.entitlements", "App"])
                == .audit(AuditOptions(paths: ["App"], entitlements: "App.entitlements")))
        #expect(throws: UsageError.self) { try parseCommandLine(["audit"]) }
        #expect(throws: UsageError.self) { try parseCommandLine(["audit", "--nope", "App"]) }
        #expect(helpText(forTopic: "audit").contains("usage: herald audit [options] PATH..."))
    }

    @Test func usageErrorsExitTwo() async {
        let result = await Self.herald(["audit"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("herald audit: "))
    }

    @Test func anErrorFindingExitsOneAndIsPrintedWithItsFix() async {
        let app = Self.corpus + "/ServiceExtensionViolations"
        let result = await Self.herald(["audit", app])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "\(app)/TemplateService.swift:17:5: error AUDIT-NSE-HANDLER this path of didReceive(_:withContentHandler:) ends without calling contentHandler"
            ))
        #expect(lines.contains("    fix: \(AuditRuleFix.serviceHandler)"))
        #expect(lines.last == "4 errors, 2 warnings, 0 info in 2 Swift files")
    }

    @Test func aCleanAppExitsZero() async {
        let result = await Self.herald(["audit", Self.corpus + "/UIKitApp"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout == "ok: no findings in 2 Swift files\n")
    }

    @Test func warningsAloneExitZero() async {
        let result = await Self.herald(["audit", Self.corpus + "/UnsetDelegate"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("note   no Info.plist found: AUDIT-BACKGROUND-MODE not checked"))
    }

    @Test func withoutSwiftcTheAuditSaysSoAndFails() async {
        let result = await Self.herald(["audit", Self.corpus + "/UIKitApp"], environment: ["PATH": "/nonexistent"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("herald audit: swiftc not found on PATH (/nonexistent)"))
    }

    @Test func aMissingPathFails() async {
        let result = await Self.herald(["audit", Self.corpus + "/NoSuchApp"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("NoSuchApp: No such file or directory"))
    }

    @Test func theJSONHasTheDocumentedFields() async throws {
        let page = try JSONFieldsTests.documented()
        var samples: [JSONValue] = []
        for app in ["UIKitAppViolations", "SwiftUIApp"] {
            let result = await Self.herald(["audit", "--json", Self.corpus + "/" + app])
            samples += try JSONFieldsTests.lines(result.stdout)
        }
        #expect(samples.count == 2)
        #expect(samples[0]["findings"]?.arrayValue?.count == 14)
        JSONFieldsTests.check("audit", samples, against: page)
    }
}

/// The fix lines the tests expect, spelled as the rule table has them.
enum AuditRuleFix {
    static let serviceHandler =
        "Call contentHandler once on each path, download failures included; pass the original content on error."
}
