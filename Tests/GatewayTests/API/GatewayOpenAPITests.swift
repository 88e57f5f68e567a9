import APNs
import Gateway
import Testing

/// `/openapi.json` is made from the route table: every route the gateway serves is documented.
@Suite(.timeLimit(.minutes(1)))
struct GatewayOpenAPITests {
    @Test(arguments: WireProtocol.allCases)
    func everyRouteIsDocumentedAndServed(_ wire: WireProtocol) async throws {
        try await GatewayAPIFixture.with(.memory) { gateway in
            let answer = try await gateway.request("GET", "/openapi.json", key: nil, over: wire)
            #expect(answer.status == 200, "\(answer.output)")
            let document = try #require(answer.json)
            #expect(document["openapi"]?.stringValue == "3.1.0")
            let paths = try #require(document["paths"]?.objectValue)
            var documented = 0
            for (pattern, operations) in paths.members.map({ ($0.key, $0.value) }) {
                for method in operations.objectValue?.keys ?? [] {
                    documented += 1
                    #expect(
                        GatewayRoute.all.contains { $0.pattern == pattern && $0.method.lowercased() == method },
                        "\(method) \(pattern) is documented but not a route")
                }
            }
            #expect(documented == GatewayRoute.all.count)
            for route in GatewayRoute.all {
                let operation = paths[route.pattern]?[route.method.lowercased()]
                #expect(operation != nil, "\(route.method) \(route.pattern) is not in /openapi.json")
                #expect(operation?["security"] == (route.scope == nil ? [] : [["bearer": []]]))
                // Served: the path with sample parameters reaches the route, not a 404 for the path.
                let path = route.pattern.replacingOccurrences(of: "{bundle-id}", with: GatewayAPIFixture.app)
                    .replacingOccurrences(of: "{token}", with: "abcd").replacingOccurrences(of: "{user}", with: "u")
                    .replacingOccurrences(of: "{id}", with: "no-such-id")
                let served = try await gateway.request(route.method, path, key: gateway.admin, over: wire)
                #expect(served.errorCode != "unknown-path" && served.status != 405, "\(route.method) \(path)")
            }
        }
    }
}
