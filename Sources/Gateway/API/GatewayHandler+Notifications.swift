// The notification routes: create (POST /v1/apps/{bundle-id}/notifications), list an app's (GET,
// newest first), read, list deliveries, cancel (/v1/notifications/{id}...), and POST /v1/lint.
//
//   create: body valid --no--> 400 naming the field
//           lint errors --yes--> 422 with the findings (nothing stored)
//           store.createNotification (recipients counted in its transaction)
//           onNotificationCreated(id) when new --> 202 {"id","recipients"}
//   by id:  the notification exists, and the key serves its app --no--> 404 unknown-notification
//           (a key of another app learns nothing, not even that the id exists)
import APNs
import HTTP2

extension GatewayRoute.Operation {
    /// Operations ``GatewayHandler/runNotifications(_:key:app:_:_:)`` serves.
    var isNotifications: Bool {
        switch self {
        case .createNotification, .getNotification, .notificationDeliveries, .cancelNotification, .lint,
            .listNotifications, .deviceDeliveries:
            true
        default: false
        }
    }
}

extension GatewayHandler {
    /// Runs an authorized notification operation; `app` is the path's, for a route that names one.
    func runNotifications(
        _ operation: GatewayRoute.Operation, key: APIKey, app: App?, _ parameters: HTTPRouteParameters,
        _ request: HTTP2Request
    ) async throws(GatewayAPIError) -> GatewayAnswer {
        do {
            switch operation {
            case .createNotification:
                guard let app else { throw GatewayAPIError.internalError("\(operation) needs an app") }
                return try await createNotification(app: app, request)
            case .listNotifications:
                guard let app else { throw GatewayAPIError.internalError("\(operation) needs an app") }
                let query = try DeliveriesQuery(target: request.path ?? "")
                let page = try await store.notifications(
                    bundleID: app.bundleID, before: query.cursor, limit: query.limit)
                var notifications: [JSONValue] = []
                for notification in page.notifications { notifications.append(try await json(notification)) }
                return GatewayAnswer(
                    status: 200,
                    body: [
                        "notifications": .array(notifications),
                        "next-cursor": page.nextCursor.map { .string(String($0)) } ?? .null,
                    ])
            case .getNotification:
                let notification = try await visibleNotification(parameters, key: key)
                return GatewayAnswer(status: 200, body: try await json(notification))
            case .notificationDeliveries:
                let notification = try await visibleNotification(parameters, key: key)
                let query = try DeliveriesQuery(target: request.path ?? "")
                let page = try await store.deliveries(
                    notificationID: notification.id, after: query.cursor, limit: query.limit)
                return GatewayAnswer(status: 200, body: DeliveriesQuery.json(page))
            case .deviceDeliveries:
                guard let app else { throw GatewayAPIError.internalError("\(operation) needs an app") }
                let token: DeviceToken
                do { token = try DeviceToken(hex: parameters["token"] ?? "") } catch {
                    throw GatewayAPIError.badRequest(error)
                }
                let query = try DeliveriesQuery(target: request.path ?? "")
                // A forgotten device keeps its history: the rows are the notifications', not the device's.
                let page = try await store.deliveries(
                    bundleID: app.bundleID, kind: .device, recipient: token.hex, before: query.cursor,
                    limit: query.limit)
                return GatewayAnswer(status: 200, body: DeliveriesQuery.json(page))
            case .cancelNotification:
                let notification = try await visibleNotification(parameters, key: key)
                let cancelled = try await store.cancelNotification(id: notification.id, now: configuration.clock())
                return GatewayAnswer(status: 200, body: try await json(cancelled))
            case .lint:
                let lint = try LintBody.request(parsing: request.body, now: configuration.clock())
                return GatewayAnswer(status: 200, body: GatewayLint.answer(Linter.lint(lint)))
            default:
                throw GatewayAPIError.internalError("\(operation) is not a notification operation")
            }
        } catch let error as GatewayAPIError {
            throw error
        } catch let error as GatewayStoreError {
            throw .store(error)
        } catch {
            throw .internalError("\(error)")
        }
    }

    private func createNotification(app: App, _ request: HTTP2Request) async throws -> GatewayAnswer {
        let idempotencyKey = try Self.idempotencyKey(request)
        let notification = try NotificationBody.request(
            parsing: request.body, app: app, idempotencyKey: idempotencyKey)
        let now = configuration.clock()
        let report = GatewayLint.lint(notification, now: now)
        guard !report.hasErrors else { throw GatewayLint.refusal(report) }
        let creation = try await store.createNotification(notification, id: APNsID.random().value, now: now)
        if creation.created { configuration.onNotificationCreated?(creation.notification.id) }
        return GatewayAnswer(
            status: 202,
            body: [
                "id": .string(creation.notification.id), "recipients": .number(JSONNumber(creation.recipients)),
            ])
    }

    /// The notification the path names, if the key may see it.
    private func visibleNotification(_ parameters: HTTPRouteParameters, key: APIKey) async throws -> StoredNotification
    {
        let id = parameters["id"] ?? ""
        guard let notification = try await store.notification(id: id),
            key.bundleID.map({ $0 == notification.request.bundleID }) ?? true
        else { throw GatewayAPIError.unknownNotification(id) }
        return notification
    }

    /// The `idempotency-key` header: 1 to 200 visible ASCII characters, or nil when absent.
    private static func idempotencyKey(_ request: HTTP2Request) throws(GatewayAPIError) -> String? {
        guard let value = request.headers.value(for: "idempotency-key") else { return nil }
        guard (1...200).contains(value.utf8.count), value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .badRequest(
                field: "idempotency-key", "is not 1 to 200 visible ASCII characters; send e.g. a UUID per send")
        }
        return value
    }

    /// `GET /v1/notifications/{id}`'s answer (docs/GATEWAY.md, `gateway-notification`).
    private func json(_ notification: StoredNotification) async throws -> JSONValue {
        let counts = try await store.counts(id: notification.id)
        var byReason = JSONObject()
        for (reason, count) in counts.byReason.sorted(by: { $0.key < $1.key }) {
            byReason.append(key: reason, value: .number(JSONNumber(count)))
        }
        var object = JSONObject()
        object.append(key: "id", value: .string(notification.id))
        object.append(key: "bundle-id", value: .string(notification.request.bundleID))
        object.append(key: "state", value: .string(notification.state.rawValue))
        object.append(
            key: "counts",
            value: [
                "succeeded": .number(JSONNumber(counts.succeeded)), "failed": .number(JSONNumber(counts.failed)),
                "pending": .number(JSONNumber(counts.pending)), "cancelled": .number(JSONNumber(counts.cancelled)),
                "by-reason": .object(byReason),
            ])
        object.append(key: "recipients", value: .number(JSONNumber(notification.recipients)))
        object.append(key: "created-at", value: .number(JSONNumber(notification.createdAt)))
        if let sendAt = notification.request.sendAt {
            object.append(key: "send-at", value: .number(JSONNumber(sendAt)))
        }
        return .object(object)
    }
}

extension GatewayAPIError {
    static func internalError(_ message: String) -> GatewayAPIError {
        GatewayAPIError(status: 500, code: "internal", message: message, field: nil)
    }
}
