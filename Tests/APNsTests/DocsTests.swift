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
            #expect(
                page.contains("| `\(rule.id)` | \(rule.severity.rawValue) |"), "docs/LINT-RULES.md lacks \(rule.id)")
        }
        let listed = page.split(separator: "\n").filter { $0.hasPrefix("| `") }.count
        #expect(listed == LintRule.all.count)
    }

    /// The README's "Use it from Swift" program is the example package's file, verbatim (the
    /// package is built and run by scripts/test, so the README's copy compiles too).
    @Test func readmeShowsTheUseFromSwiftExampleVerbatim() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try String(
            contentsOf: Self.root.appendingPathComponent(
                "Examples/UseFromSwift/Sources/UseFromSwift/UseFromSwift.swift"),
            encoding: .utf8)
        #expect(example.contains("APNsClient("), "the example sends through the client")
        #expect(readme.contains("```swift\n" + example + "```\n"), "README.md's copy differs from the example's file")
    }

    /// Every product the README's dependency lines name is a library product of Package.swift.
    @Test func readmeNamesOnlyRealLibraryProducts() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let named = readme.components(separatedBy: ".product(name: \"").dropFirst()
            .compactMap { $0.split(separator: "\"").first.map(String.init) }
        #expect(named.count >= 4)
        for product in named {
            #expect(manifest.contains(".library(name: \"\(product)\""), "README names product \(product)")
        }
    }
}
