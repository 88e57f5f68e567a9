import Audit
import Foundation
import Testing

/// docs/AUDIT-RULES.md stays true: its table lists every rule with its severity and summary, and each
/// rule has a section with a bad and a good example.
@Suite(.timeLimit(.minutes(1)))
struct AuditDocsTests {
    @Test func theRulesPageListsEveryRule() throws {
        let page = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("docs/AUDIT-RULES.md"),
            encoding: .utf8)
        for rule in AuditRule.all {
            #expect(
                page.contains("| `\(rule.id)` | \(rule.severity.rawValue) | \(rule.summary) |"),
                "docs/AUDIT-RULES.md lacks \(rule.id) as the code has it")
            let section = page.components(separatedBy: "\n## \(rule.id)\n").dropFirst().first?
                .components(separatedBy: "\n## ").first
            #expect(section != nil, "docs/AUDIT-RULES.md has no section for \(rule.id)")
            if let section, rule != .parse {
                #expect(
                    section.contains("Bad:\n```") && section.contains("Good:\n```"), "\(rule.id) lacks its examples")
            }
        }
        #expect(page.split(separator: "\n").filter { $0.hasPrefix("| `") }.count == AuditRule.all.count)
    }
}
