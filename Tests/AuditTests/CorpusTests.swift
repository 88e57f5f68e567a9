import Audit
import Foundation
import Testing

/// The corpus under Corpus/: small apps, one directory each, audited whole. Every violation is marked on
/// its line (`// expect: AUDIT-X`, or `<!-- expect: AUDIT-X -->` in a property list); the audit must
/// find exactly the marks, no more and no fewer, and clean apps carry no mark.
@Suite(.timeLimit(.minutes(2)))
struct CorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")
    static let apps = [
        "UIKitApp", "UIKitAppViolations", "SwiftUIApp", "SwiftUIAppViolations", "UnsetDelegate",
        "ServiceExtension", "ServiceExtensionViolations", "PushKit", "PushKitViolations",
    ]

    static func compiler() throws -> SwiftCompiler {
        try SwiftCompiler.find(environment: ProcessInfo.processInfo.environment)
    }

    /// `file:line RULE` for each mark in the app's files.
    static func marks(in app: String) throws -> Set<String> {
        let directory = corpus.appendingPathComponent(app)
        var marks = Set<String>()
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let range = line.range(of: "expect: ") else { continue }
                let ids = line[range.upperBound...].replacingOccurrences(of: "-->", with: "")
                for id in ids.split(separator: ",") {
                    marks.insert("\(name):\(index + 1) \(id.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return marks
    }

    @Test(arguments: apps)
    func findingsAreExactlyTheMarks(app: String) throws {
        let directory = Self.corpus.appendingPathComponent(app).path
        let report = try Auditor.audit(AuditRequest(paths: [directory]), compiler: Self.compiler())
        let found = Set(
            report.findings.map { finding in
                "\(URL(fileURLWithPath: finding.path).lastPathComponent):\(finding.location.line) \(finding.rule.id)"
            })
        let expected = try Self.marks(in: app)
        #expect(found.subtracting(expected).sorted() == [], "found but not marked")
        #expect(expected.subtracting(found).sorted() == [], "marked but not found")
        #expect(!report.swiftFiles.isEmpty)
    }

    @Test func everyRuleIsCoveredByAMark() throws {
        var marked = Set<String>()
        for app in Self.apps { marked.formUnion(try Self.marks(in: app).map { String($0.split(separator: " ")[1]) }) }
        for rule in AuditRule.all where rule != .parse {
            #expect(marked.contains(rule.id), "no corpus mark for \(rule.id)")
        }
    }

    @Test func cleanAppsHaveNoMarks() throws {
        for app in Self.apps where !app.hasSuffix("Violations") && app != "UnsetDelegate" {
            #expect(try Self.marks(in: app).isEmpty, "\(app) is a clean app")
        }
    }
}
