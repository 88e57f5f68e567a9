import APNs
import Foundation
import Testing

/// docs/ stays true: the rule list names every rule with its severity.
@Suite(.timeLimit(.minutes(1)))
struct DocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func lintRulesPageListsEveryRule() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/LINT-RULES.md"), encoding: .utf8)
        for rule in LintRule.all {
            #expect(page.contains("| `\(rule.id)` | \(rule.severity.rawValue) |"), "docs/LINT-RULES.md lacks \(rule.id)")
        }
        let listed = page.split(separator: "\n").filter { $0.hasPrefix("| `") }.count
        #expect(listed == LintRule.all.count)
    }
}
