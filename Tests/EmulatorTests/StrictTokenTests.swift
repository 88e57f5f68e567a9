import APNs
import APNsClient
import Emulator
import Testing

@Suite("Emulator: strict and open token modes", .timeLimit(.minutes(1)))
struct StrictTokenTests {
    enum Target: String, CaseIterable, Sendable {
        case registered, unknown, otherApp, otherEnvironment
    }

    static let expected: [Target: Reason?] = [
        .registered: nil, .unknown: .badDeviceToken, .otherApp: .deviceTokenNotForTopic,
        .otherEnvironment: .badDeviceToken,
    ]

    func token(for target: Target, _ harness: DeviceHarness) async throws -> String {
        switch target {
        case .registered: try await harness.register().token
        case .unknown: String(repeating: "ab", count: 32)
        case .otherApp: try await harness.register("com.example.other").token
        case .otherEnvironment: try await harness.register("com.example.app", .production).token
        }
    }

    @Test("strict mode answers with the reason APNs would", arguments: Target.allCases)
    func strict(target: Target) async throws {
        try await withDeviceEmulator(strictTokens: true) { harness in
            let answer = try await harness.push(to: try await token(for: target, harness))
            switch (answer, Self.expected[target] ?? nil) {
            case (.success, nil):
                break
            case (.failure(.rejected(let rejection)), let reason?):
                #expect(rejection.reason == reason && rejection.status == 400)
            default:
                Issue.record("\(target): got \(answer), expected \(String(describing: Self.expected[target] ?? nil))")
            }
        }
    }

    @Test("open mode accepts any well-formed token, registered or not", arguments: Target.allCases)
    func open(target: Target) async throws {
        try await withDeviceEmulator(strictTokens: false) { harness in
            let answer = try await harness.push(to: try await token(for: target, harness))
            #expect((try? answer.get()) != nil, "\(answer)")
        }
    }

    @Test("a production emulator takes production tokens in strict mode, not sandbox ones")
    func productionEmulator() async throws {
        try await withDeviceEmulator(strictTokens: true, sandbox: false) { harness in
            let production = try await harness.register()  // the emulator's own environment by default
            #expect((try? await harness.push(to: production.token).get()) != nil)
            let sandbox = try await harness.register("com.example.app", .sandbox)
            let answer = try await harness.push(to: sandbox.token)
            guard case .failure(let error) = answer else {
                Issue.record("a sandbox token was accepted by a production emulator")
                return
            }
            #expect(error.reason == .badDeviceToken)
        }
    }
}
