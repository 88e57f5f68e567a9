import APNsClient
import Testing

/// Apple's broadcast and management hosts per environment (APNS-REFERENCE.md, "Endpoints").
@Suite(.timeLimit(.minutes(1)))
struct BroadcastEndpointsTests {
    @Test(arguments: [
        (
            APNsEndpoint.sandbox, "https://api-broadcast.sandbox.push.apple.com",
            "https://api-manage-broadcast.sandbox.push.apple.com:2195"
        ),
        (APNsEndpoint.production, "https://api.push.apple.com", "https://api-manage-broadcast.push.apple.com:2196"),
        (
            APNsEndpoint.production.onAlternativePort(), "https://api.push.apple.com",
            "https://api-manage-broadcast.push.apple.com:2196"
        ),
        (APNsEndpoint(host: "localhost", port: 2197), "https://localhost:2197", "https://localhost:2197"),
        (APNsEndpoint(host: "127.0.0.1", port: 8080, usesTLS: false), "http://127.0.0.1:8080", "http://127.0.0.1:8080"),
    ])
    func endpointsMatchTheDeviceEndpoint(_ device: APNsEndpoint, _ broadcast: String, _ management: String) {
        let endpoints = BroadcastEndpoints.matching(device)
        #expect(endpoints.broadcast.description == broadcast)
        #expect(endpoints.management.description == management)
    }
}
