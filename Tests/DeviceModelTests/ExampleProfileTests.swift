import DeviceModel
import Foundation
import Testing

/// Every profile in Examples/devices runs offline (virtual clock, default seed) and its timeline matches the
/// `.timeline` file beside it, line for line. To regenerate one after a deliberate change:
/// `herald device run Examples/devices/NAME.json > Examples/devices/NAME.timeline`.
@Suite(.timeLimit(.minutes(1)))
struct ExampleProfileTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/devices")

    static var profiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test("Examples/devices holds profiles")
    func examplesExist() {
        #expect(Self.profiles.count >= 5)
    }

    @Test("an example profile's timeline matches its expected file", arguments: profiles)
    func timelineMatches(_ name: String) throws {
        let profile = try DeviceProfile(json: Array(try Data(contentsOf: Self.directory.appendingPathComponent(name))))
        let run = ProfileRun(profile)
        try run.runOffline()
        let expectedFile = Self.directory.appendingPathComponent(
            name.replacingOccurrences(of: ".json", with: ".timeline"))
        let expected = try String(contentsOf: expectedFile, encoding: .utf8)
        let actual = run.device.timeline.text + "\n"
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, (want, got)) in zip(expectedLines, actualLines).enumerated() where want != got {
            Issue.record("\(name) line \(index + 1):\n  expected: \(want)\n  actual:   \(got)")
            break
        }
        #expect(
            expectedLines.count == actualLines.count,
            "\(name): \(actualLines.count) lines, expected \(expectedLines.count)")
    }
}
