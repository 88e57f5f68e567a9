import APNs
import Foundation
import Testing

/// The bundled example payloads (Examples/manifest.tsv): each lints clean for its push type and
/// survives a decode/encode round trip.
struct Example: Sendable, CustomTestStringConvertible {
    let file: String
    let pushType: String
    let topic: String
    let priority: String
    let destination: LintRequest.Destination

    var testDescription: String { file }

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples")

    static let all: [Example] = {
        guard let manifest = try? String(contentsOf: directory.appendingPathComponent("manifest.tsv"), encoding: .utf8) else {
            return []
        }
        return manifest.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 5, let destination = LintRequest.Destination(rawValue: fields[4]) else { return nil }
            return Example(file: fields[0], pushType: fields[1], topic: fields[2], priority: fields[3], destination: destination)
        }
    }()

    func bytes() throws -> [UInt8] {
        Array(try Data(contentsOf: Example.directory.appendingPathComponent(file)))
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ExampleTests {
    @Test func manifestListsEveryExample() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Example.directory.path).filter { $0.hasSuffix(".json") }
        #expect(Set(files) == Set(Example.all.map(\.file)))
        #expect(Example.all.count >= 10)
    }

    @Test(arguments: Example.all)
    func lintsClean(_ example: Example) throws {
        let report = Linter.lint(LintRequest(
            payload: try example.bytes(), pushType: example.pushType, topic: example.topic, priority: example.priority,
            destination: example.destination))
        let problems = report.findings.filter { $0.severity != .info }
        #expect(problems.isEmpty, "\(problems.map(\.description))")
        #expect(report.pushType?.rawValue == example.pushType)
    }

    @Test(arguments: Example.all)
    func inferredPushTypeMatches(_ example: Example) throws {
        guard example.destination == .device, example.pushType != "voip" else { return }
        let report = Linter.lint(LintRequest(payload: try example.bytes(), topic: example.topic))
        #expect(report.pushTypeWasInferred)
        #expect(report.pushType?.rawValue == example.pushType)
    }

    @Test(arguments: Example.all)
    func roundTripIsStable(_ example: Example) throws {
        let original = try JSONValue(parsing: try example.bytes())
        let first = try Payload(json: original).encoded().bytes
        let second = try Payload(bytes: first).encoded().bytes
        #expect(first == second)
        // Nothing lost or changed: the same members, whatever their order.
        #expect(try JSONValue(parsing: first).isEquivalent(to: original))
    }
}
