// The gateway's request handler. On the event loop it only matches the route (404, 405 and a
// malformed path are answered there, as are /healthz and /openapi.json); everything that needs the
// store runs in a Task and answers through an `HTTP2SendableResponder`, so the loop never waits on
// the store.
//
//   match route --no--> 404 / 405 (+ allow) / 400
//     | public route (health, OpenAPI, the console's files) -> answer on the loop
//     v Task
//   authorization: Bearer KEY --missing, unknown, revoked--> 401
//   key's scope covers the route's, key's app is the path's --no--> 403
//   the path's app (if it names one) is configured --no--> 404 unknown-app
//   body within the limit --no--> 413
//   token and body valid --no--> 400 naming the field (nothing is stored)
//   the operation -> 200 / 201 / 202 / 204 / 404 unknown-device, -activity, -notification / 422 (lint)
//     (channel routes: the app's APNsClient -> 409 none / 404 / 502 refused / 503 no answer)
import APNs
import Console
import HTTP2

/// Answers the gateway's HTTP API over HTTP/1.1 and HTTP/2.
///
/// Thread-safety: immutable after init; `Sendable`. One handler serves every loop.
final class GatewayHandler: HTTP2RequestHandler {
    let configuration: GatewayConfiguration
    let store: any GatewayStore
    let apns: APNsConnections
    private let router: HTTPRouter<GatewayRoute>
    private let openAPIDocument: [UInt8]

    init(configuration: GatewayConfiguration, store: any GatewayStore, apns: APNsConnections) throws(HTTPRouteError) {
        self.configuration = configuration
        self.store = store
        self.apns = apns
        router = try GatewayRoute.router()
        openAPIDocument = GatewayOpenAPI.document(for: GatewayRoute.all).encoded()
    }

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let method = request.method ?? ""
        let path = request.path ?? ""
        let respond = { (status: Int, headers: [HTTP2Header], body: [UInt8]) in
            _ = responder.respond(status: status, headers: headers, body: body)
        }
        switch router.match(method: method, path: path) {
        case .notFound:
            Self.answer(.failure(.unknownPath(path)), respond)
        case .methodNotAllowed(let allowed):
            Self.answer(.failure(.methodNotAllowed(method, allowed: allowed)), respond)
        case .invalidPath(let reason):
            Self.answer(.failure(.badRequest(field: "path", reason)), respond)
        case .found(let route, let parameters):
            switch route.operation {
            case .health:
                Self.answer(.success(GatewayAnswer(status: 200, body: ["status": "ok"])), respond)
            case .openAPI:
                respond(200, Self.jsonHeaders, openAPIDocument)
            case .console:
                if !ConsoleSite.gateway.respond(to: request, responder: responder) {
                    Self.answer(.failure(.unknownAsset(path)), respond)
                }
            default:
                let sendable = responder.sendable
                Task {
                    let result = await self.perform(route, parameters, request)
                    Self.answer(result) { sendable.respond(status: $0, headers: $1, body: $2) }
                }
            }
        }
    }

    /// Authorizes the request, then runs its operation.
    private func perform(_ route: GatewayRoute, _ parameters: HTTPRouteParameters, _ request: HTTP2Request) async
        -> Result<GatewayAnswer, GatewayAPIError>
    {
        do throws(GatewayAPIError) {
            let key = try await authenticate(request)
            if route.operation == .metrics || route.operation == .metricsHistory {
                return .success(try metricsAnswer(key, route))
            }
            let bundleID = parameters["bundle-id"]
            try authorize(key, route, bundleID: bundleID)
            if route.operation == .listApps { return .success(appsAnswer(key)) }
            if route.operation == .preview {
                guard !request.exceededBodyLimit else { throw .bodyTooLarge(limit: configuration.bodyLimit) }
                return .success(try GatewayPreview.answer(request.body))
            }
            let app = try bundleID.map { bundleID throws(GatewayAPIError) in
                guard let app = configuration.apps[bundleID] else { throw .unknownApp(bundleID) }
                return app
            }
            guard !request.exceededBodyLimit else { throw .bodyTooLarge(limit: configuration.bodyLimit) }
            if route.operation.isNotifications {
                return .success(try await runNotifications(route.operation, key: key, app: app, parameters, request))
            }
            guard let app else { throw .internalError("\(route.operation) needs an app") }
            let query = try GatewayQuery(target: request.path ?? "")
            return .success(try await run(route.operation, app: app, parameters, body: request.body, query: query))
        } catch {
            return .failure(error)
        }
    }

    /// The live key named by `authorization: Bearer KEY`.
    private func authenticate(_ request: HTTP2Request) async throws(GatewayAPIError) -> APIKey {
        guard let header = request.headers.value(for: "authorization") else { throw .unauthorized }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw .unauthorized }
        let secret = parts[1].trimmingSpaces
        guard !secret.isEmpty else { throw .unauthorized }
        let key: APIKey?
        do {
            key = try await store.verifyAPIKey(secret: secret)
        } catch {
            throw .store(error)
        }
        guard let key else { throw .unauthorized }
        return key
    }

    /// The key's scope covers the route's; a key of one app is refused any other app's path (the
    /// notification routes check the stored notification's app instead: GatewayHandler+Notifications).
    private func authorize(_ key: APIKey, _ route: GatewayRoute, bundleID: String?) throws(GatewayAPIError) {
        if let required = route.scope, !key.scope.covers(required) {
            throw .forbidden(
                "a \(key.scope) key may not \(route.method) \(route.pattern); it needs a \(required) or wider key")
        }
        if let keyApp = key.bundleID, let bundleID, keyApp != bundleID {
            throw .forbidden("this key serves '\(keyApp)' only, not '\(bundleID)'")
        }
    }

    static let jsonHeaders = [HTTP2Header("content-type", "application/json")]

    /// `GET /v1/apps`: the configured apps the key serves, by bundle id, with their environments.
    private func appsAnswer(_ key: APIKey) -> GatewayAnswer {
        let apps = configuration.apps.values
            .filter { app in key.bundleID.map { $0 == app.bundleID } ?? true }
            .sorted { $0.bundleID < $1.bundleID }
            .map { app -> JSONValue in
                [
                    "bundle-id": .string(app.bundleID),
                    "environments": .array(app.environments.map(\.rawValue).sorted().map(JSONValue.string)),
                ]
            }
        return GatewayAnswer(status: 200, body: ["apps": .array(apps)])
    }

    /// Hands a result to `respond` (the loop's responder, or a sendable one).
    private static func answer(
        _ result: Result<GatewayAnswer, GatewayAPIError>, _ respond: (Int, [HTTP2Header], [UInt8]) -> Void
    ) {
        switch result {
        case .success(let answer):
            if let text = answer.text {
                return respond(answer.status, [HTTP2Header("content-type", text.type)], text.bytes)
            }
            guard let body = answer.body else { return respond(answer.status, [], []) }
            respond(answer.status, jsonHeaders, body.encoded())
        case .failure(let error):
            respond(error.status, jsonHeaders + error.headers, error.body.encoded())
        }
    }
}

/// A successful answer: the status and the JSON body (nil: none, as for 204).
struct GatewayAnswer: Sendable {
    var status: Int
    var body: JSONValue?
    /// A body that is not JSON, with its content type (`/metrics`).
    var text: (type: String, bytes: [UInt8])? = nil
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
