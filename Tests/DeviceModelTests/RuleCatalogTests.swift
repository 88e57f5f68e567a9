import DeviceModel
import Foundation
import Testing

/// The rule catalog against its tests and docs/DEVICE.md.
@Suite(.timeLimit(.minutes(1)))
struct RuleCatalogTests {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let root = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()

    @Test("the rule ids in DeviceRule.all are unique")
    func idsAreUnique() {
        let ids = DeviceRule.all.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    @Test("every rule is named by a test in Tests/DeviceModelTests")
    func everyRuleHasATest() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.testsDirectory.path)
            .filter { $0.hasSuffix(".swift") && $0 != "RuleCatalogTests.swift" }
        let text = try files.map {
            try String(contentsOf: Self.testsDirectory.appendingPathComponent($0), encoding: .utf8)
        }
        .joined()
        let untested = DeviceRule.all.filter { rule in
            !text.contains(rule.id)
                && !text.contains(rule.id.split(separator: "-").dropLast().joined(separator: "-") + "-*")
        }
        #expect(untested.map(\.id) == [])
    }

    @Test("docs/DEVICE.md lists every undocumented (U) rule with the default taken")
    func everyUndocumentedRuleIsListed() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/DEVICE.md"), encoding: .utf8)
        let missing = DeviceRule.all.filter { $0.label == .undocumented && !page.contains("| \($0.id) |") }
        #expect(missing.map(\.id) == [])
    }
}
