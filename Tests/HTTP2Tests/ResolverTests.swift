import Glibc
import Testing

@testable import HTTP2

@Suite(.timeLimit(.minutes(1)))
struct ResolverTests {
    @Test func resolvesLocalhostToLoopback() async throws {
        let addresses = try await Resolver.resolve(host: "localhost", port: 443)
        #expect(!addresses.isEmpty)
        #expect(addresses.allSatisfy { $0.port == 443 })
        #expect(addresses.allSatisfy { ["127.0.0.1", "::1"].contains($0.host) }, "\(addresses)")
        #expect(Set(addresses).count == addresses.count, "no duplicates")
    }

    @Test(arguments: [("127.0.0.1", "127.0.0.1:2197"), ("::1", "[::1]:2197"), ("[::1]", "[::1]:2197")])
    func numericHostsResolveToThemselves(host: String, expected: String) async throws {
        let addresses = try await Resolver.resolve(host: host, port: 2197)
        #expect(addresses.map(\.description) == [expected])
    }

    @Test func anUnknownNameFailsWithTheNameInTheError() async throws {
        do {
            let addresses = try await Resolver.resolve(host: "nonexistent.invalid", port: 443)
            Issue.record("resolved to \(addresses)")
        } catch let error as ResolverError {
            #expect(error.host == "nonexistent.invalid")
            #expect(error.code != 0)
            #expect(!error.message.isEmpty)
            #expect(error.description.hasPrefix("cannot resolve 'nonexistent.invalid': "), "\(error)")
        }
    }

    @Test func concurrentLookupsEachGetTheirOwnAnswer() async throws {
        let results = try await withThrowingTaskGroup(of: [SocketAddress].self) { group in
            for port in 1...16 { group.addTask { try await Resolver.resolve(host: "localhost", port: UInt16(port)) } }
            return try await group.reduce(into: [[SocketAddress]]()) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(Set(results.compactMap { $0.first?.port }) == Set((1...16).map(UInt16.init)))
    }

    @Test func errorCodesHaveNames() {
        #expect(ResolverError.name(of: EAI_NONAME) == "EAI_NONAME")
        #expect(ResolverError.name(of: EAI_AGAIN) == "EAI_AGAIN")
        #expect(
            ResolverError(host: "x", code: EAI_NONAME, message: "Name or service not known").description
                == "cannot resolve 'x': Name or service not known (EAI_NONAME)")
    }
}
