import Audit
import Foundation
import Testing

/// The syntax model built from swiftc's parse tree: declarations, conformances, calls with their
/// labels and closures, and positions of expressions the dump gives no range to.
@Suite(.timeLimit(.minutes(1)))
struct SyntaxModelTests {
    static func parse(_ source: String) throws -> SourceFile {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).swift")
            .path
        try Data(source.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let compiler = try SwiftCompiler.find(environment: ProcessInfo.processInfo.environment)
        return try SourceParser(compiler: compiler).parse([path])[0].get()
    }

    @Test func typesKeepTheirConformancesAndFunctions() throws {
        let file = try Self.parse(
            """
            import UIKit
            @main
            final class AppDelegate: UIResponder, UIKit.UIApplicationDelegate, Observable<Int> {
                func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {}
            }
            extension AppDelegate: @preconcurrency UNUserNotificationCenterDelegate where T: Equatable {}
            """)
        #expect(file.imports == ["UIKit"])
        #expect(file.types.map(\.name) == ["AppDelegate", "AppDelegate"])
        #expect(file.types[0].inherits == ["UIResponder", "UIApplicationDelegate", "Observable"])
        #expect(file.types[0].isMain)
        #expect(file.types[1].kind == .extension)
        #expect(file.types[1].inherits == ["UNUserNotificationCenterDelegate"])
        let function = try #require(file.types[0].functions.first)
        #expect(function.fullName == "application(_:didRegisterForRemoteNotificationsWithDeviceToken:)")
        #expect(function.parameters.map(\.name) == ["application", "deviceToken"])
        #expect(function.parameters.map(\.label) == [nil, "didRegisterForRemoteNotificationsWithDeviceToken"])
        #expect(function.location == SourceLocation(line: 4, column: 5))
    }

    @Test func callsHaveNamePathsLabelsClosuresAndPositions() throws {
        let file = try Self.parse(
            """
            func f() {
                // registerForRemoteNotifications() in a comment is not code
                let s = "registerForRemoteNotifications"
                URLSession.shared.downloadTask(with: url) { location, _, error in
                    handler?(content)
                }.resume()
                application.registerForRemoteNotifications()
            }
            """)
        let body = try #require(file.functions.first?.body)
        var calls: [Call] = []
        for statement in body {
            statement.visit { if case .call(let call) = $0 { calls.append(call) } }
        }
        let byName = Dictionary(calls.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let download = try #require(byName["downloadTask"])
        #expect(download.namePath == ["URLSession", "shared", "downloadTask"])
        #expect(download.labels == ["with", nil])
        #expect(download.closures.first?.parameters == ["location", "_", "error"])
        #expect(download.location == SourceLocation(line: 4, column: 23))
        #expect(byName["handler"]?.location == SourceLocation(line: 5, column: 9))
        #expect(byName["resume"]?.location == SourceLocation(line: 6, column: 7))
        #expect(byName["registerForRemoteNotifications"]?.location == SourceLocation(line: 7, column: 17))
    }

    @Test func aMissingCompilerIsSaidPlainly() {
        #expect(throws: SwiftCompilerError.self) { try SwiftCompiler.find(environment: ["PATH": "/nonexistent"]) }
        do {
            _ = try SwiftCompiler.find(environment: ["PATH": "/nonexistent"])
        } catch {
            #expect(error.message.hasPrefix("swiftc not found on PATH (/nonexistent)"))
        }
        #expect(throws: SwiftCompilerError.self) {
            try SwiftCompiler.find(environment: ["HERALD_SWIFTC": "/nonexistent/swiftc"])
        }
    }

    @Test func aFileSwiftcCannotReadIsAParseFinding() throws {
        let compiler = try SwiftCompiler.find(environment: ProcessInfo.processInfo.environment)
        let missing = "/nonexistent/App.swift"
        let result = SourceParser(compiler: compiler).parse([missing])
        guard case .failure(let failure) = result[0] else {
            Issue.record("a missing file parsed")
            return
        }
        #expect(failure.path == missing)
    }

    /// Herald's JSON parser stops at 512 levels; a file nested deeper than the parse tree can carry is
    /// a finding that says so, not a crash, and the other files are still audited.
    @Test func aTreeTooDeepForTheJSONParserIsAParseFinding() throws {
        let depth = 80
        let source =
            "func f() {\n" + String(repeating: "run {\n", count: depth) + String(repeating: "}\n", count: depth) + "}\n"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(source.utf8).write(to: directory.appendingPathComponent("Deep.swift"))
        try Data("func g() {}\n".utf8).write(to: directory.appendingPathComponent("Flat.swift"))
        let compiler = try SwiftCompiler.find(environment: ProcessInfo.processInfo.environment)
        let report = try Auditor.audit(AuditRequest(paths: [directory.path]), compiler: compiler)
        #expect(report.findings.map(\.rule) == [.parse])
        #expect(report.findings.first?.path.hasSuffix("Deep.swift") == true)
        #expect(report.findings.first?.message.contains("nesting deeper than 512 levels") == true)
        #expect(report.swiftFiles.count == 2)
    }
}
