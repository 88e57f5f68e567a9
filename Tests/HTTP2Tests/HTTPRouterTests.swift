import Testing

@testable import HTTP2

@Suite(.timeLimit(.minutes(1)))
struct HTTPRouterTests {
    static func apiRouter() throws -> HTTPRouter<String> {
        var router = HTTPRouter<String>()
        try router.add("PUT", "/v1/apps/{bundle-id}/devices/{token}", "register")
        try router.add("GET", "/v1/apps/{bundle-id}/devices/{token}", "device")
        try router.add("DELETE", "/v1/apps/{bundle-id}/devices/{token}", "unregister")
        try router.add("GET", "/v1/apps/{bundle-id}/users/{user}/devices", "user-devices")
        try router.add("POST", "/v1/apps/{bundle-id}/channels", "create-channel")
        try router.add("GET", "/v1/apps/{bundle-id}/channels/all", "all-channels")
        try router.add("DELETE", "/v1/apps/{bundle-id}/channels/{channel-id}", "delete-channel")
        try router.add("GET", "/healthz", "health")
        try router.add("GET", "/", "root")
        return router
    }

    func found(_ match: HTTPRouteMatch<String>) -> (String, HTTPRouteParameters)? {
        guard case .found(let handler, let parameters) = match else { return nil }
        return (handler, parameters)
    }

    @Test func parametersAreCapturedByName() throws {
        let router = try Self.apiRouter()
        let (handler, parameters) = try #require(
            found(router.match(method: "PUT", path: "/v1/apps/com.example/devices/abcd")))
        #expect(handler == "register")
        #expect(parameters["bundle-id"] == "com.example")
        #expect(parameters["token"] == "abcd")
        #expect(parameters.count == 2)
    }

    @Test func theQueryIsNotPartOfThePath() throws {
        let router = try Self.apiRouter()
        #expect(found(router.match(method: "GET", path: "/healthz?verbose=1"))?.0 == "health")
        #expect(found(router.match(method: "GET", path: "/?x"))?.0 == "root")
    }

    @Test(arguments: ["/nope", "/v1/apps/x/devices", "/v1/apps/x/devices/t/extra", "/healthz/", "/v1/apps//devices/t"])
    func unknownPathsAreNotFound(_ path: String) throws {
        guard case .notFound = try Self.apiRouter().match(method: "GET", path: path) else {
            Issue.record("\(path) should be 404")
            return
        }
    }

    @Test func aKnownPathWithAnotherMethodListsTheAllowedOnes() throws {
        let router = try Self.apiRouter()
        guard case .methodNotAllowed(let allowed) = router.match(method: "POST", path: "/v1/apps/x/devices/t") else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed == ["DELETE", "GET", "HEAD", "PUT"])
        guard case .methodNotAllowed(let allowed) = router.match(method: "GET", path: "/v1/apps/x/channels") else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed == ["POST"])
    }

    @Test func headFallsBackToGet() throws {
        #expect(found(try Self.apiRouter().match(method: "HEAD", path: "/healthz"))?.0 == "health")
    }

    @Test func aLiteralSegmentWinsOverAParameter() throws {
        let router = try Self.apiRouter()
        #expect(found(router.match(method: "GET", path: "/v1/apps/x/channels/all"))?.0 == "all-channels")
        let (handler, parameters) = try #require(found(router.match(method: "DELETE", path: "/v1/apps/x/channels/all")))
        #expect(handler == "delete-channel")
        #expect(parameters["channel-id"] == "all")
    }

    @Test func parametersArePercentDecodedAfterSplitting() throws {
        let router = try Self.apiRouter()
        let (_, parameters) = try #require(
            found(router.match(method: "GET", path: "/v1/apps/com.example/users/a%2Fb%20c%C3%A9/devices")))
        #expect(parameters["user"] == "a/b cé")
        #expect(found(router.match(method: "GET", path: "/%68ealthz"))?.0 == "health")
    }

    @Test(arguments: ["/v1/apps/x/users/%zz/devices", "/v1/apps/x/users/%4/devices", "/v1/apps/x/users/%FF/devices"])
    func badPercentEncodingIsAnInvalidPath(_ path: String) throws {
        guard case .invalidPath(let reason) = try Self.apiRouter().match(method: "GET", path: path) else {
            Issue.record("\(path) should be 400")
            return
        }
        #expect(reason.contains("percent-encoded"))
    }

    @Test(arguments: [
        ("devices", "starts with '/'"),
        ("/a//b", "not empty"),
        ("/a/", "not empty"),
        ("/a/{}", "whole segment"),
        ("/a/x{id}", "literal segments"),
        ("/a/{id}/{id}", "appears twice"),
        ("/a/{i d}", "parameter names"),
    ])
    func invalidPatternsAreRefusedWithTheRule(_ pattern: String, _ rule: String) {
        var router = HTTPRouter<Int>()
        #expect {
            try router.add("GET", pattern, 1)
        } throws: { error in
            (error as? HTTPRouteError)?.rule.contains(rule) == true
        }
    }

    @Test func aRouteAddedTwiceIsRefused() throws {
        var router = HTTPRouter<Int>()
        try router.add("GET", "/a/{x}", 1)
        #expect(throws: HTTPRouteError.self) { try router.add("get", "/a/{y}", 2) }
        try router.add("PUT", "/a/{x}", 3)
    }
}
