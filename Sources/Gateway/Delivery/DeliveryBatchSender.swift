// One claimed batch, sent: each delivery goes to the client of its app and environment with the
// apns-id fixed in its row, and comes back as an outcome.
//
//   claim --token no longer active--> failed TokenNotActive (not sent)
//         --no client for app+env---> failed NoClientForEnvironment (not sent)
//         --channel-----------------> client.broadcast (request id = the row's apns-id)
//         --device, activity, push-to-start--> client.sendEach, per client: the bulk path, many
//           requests in flight over HTTP/2, no task per notification
//
// Topics: a device gets the bundle id with its push type's suffix (`.voip`, `.complication`, ...);
// an activity's update token and a push-to-start token get `BUNDLE.push-type.liveactivity`.
import APNs
import APNsClient
import HTTP2

/// Sends one claimed batch; memory is the batch's, whatever the notification's fan-out.
struct DeliveryBatchSender: Sendable {
    let connections: APNsConnections
    let metrics: GatewayMetrics
    /// Sends in flight at most, per client.
    let concurrency: Int

    /// Sends every delivery of `claim` except those in `inactive` (ids), and returns the outcomes
    /// to record (none for a send the client abandoned at shutdown).
    func send(_ claim: DeliveryClaim, inactive: Set<Int>) async -> [DeliveryOutcome] {
        var outcomes: [DeliveryOutcome] = []
        var rounds: [APNsConnections.Key: SendRound] = [:]
        var broadcasts: [(APNsClient, Delivery, Broadcast)] = []
        var prepared: [NotificationID: (topic: Topic?, payload: EncodedPayload)] = [:]
        // A fan-out's batch is one notification to one environment: its client and round are
        // looked up once, not per delivery.
        var last: (notification: NotificationID, environment: Environment, client: APNsClient?, round: SendRound?)?
        func fail(_ delivery: Delivery, _ reason: Reason) {
            outcomes.append(DeliveryOutcome(delivery, result: .failed(reason: reason, timestamp: nil)))
            metrics.recordSend(.failed, reason: reason.rawValue, microseconds: nil)
        }
        for delivery in claim.deliveries {
            guard let stored = claim.notifications[delivery.notificationID] else {
                fail(delivery, GatewayReason.malformedRecipient)
                continue
            }
            if inactive.contains(delivery.id) {
                fail(delivery, GatewayReason.tokenNotActive)
                continue
            }
            let request = stored.request
            let key = APNsConnections.Key(bundleID: request.bundleID, environment: delivery.environment)
            if last?.notification != stored.id || last?.environment != delivery.environment {
                let client = connections.client(bundleID: key.bundleID, environment: key.environment)
                last = (stored.id, delivery.environment, client, nil)
            }
            guard let client = last?.client else {
                fail(delivery, GatewayReason.noClient)
                continue
            }
            if prepared[stored.id] == nil {
                prepared[stored.id] = (Self.topic(for: delivery.kind, request), EncodedPayload(bytes: request.payload))
            }
            let (topic, payload) = prepared[stored.id] ?? (nil, EncodedPayload(bytes: []))
            if delivery.kind == .channel {
                guard let channel = try? ChannelID(delivery.recipient) else {
                    fail(delivery, GatewayReason.malformedRecipient)
                    continue
                }
                broadcasts.append(
                    (
                        client, delivery,
                        Broadcast(
                            bundleID: request.bundleID, channelID: channel, priority: request.priority,
                            expiration: request.expiration, requestID: delivery.apnsID, payload: payload)
                    ))
                continue
            }
            guard let token = try? DeviceToken(hex: delivery.recipient), let topic else {
                fail(delivery, GatewayReason.malformedRecipient)
                continue
            }
            let notification = APNsNotification(
                token: token, topic: topic, pushType: request.pushType, priority: request.priority,
                expiration: request.expiration, collapseID: request.collapseID, apnsID: delivery.apnsID,
                payload: payload)
            let round: SendRound
            if let known = last?.round {
                round = known
            } else {
                round = rounds[key] ?? SendRound(client: client, metrics: metrics)
                rounds[key] = round
                last?.round = round
            }
            round.add(notification, of: delivery)
        }
        let sent = await withTaskGroup(of: [DeliveryOutcome].self) { group in
            for round in rounds.values {
                group.addTask { await round.run(concurrency: concurrency) }
            }
            for (client, delivery, broadcast) in broadcasts {
                group.addTask {
                    await Self.broadcast(broadcast, of: delivery, client: client, metrics: metrics)
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        return outcomes + sent
    }

    /// The topic of a delivery of `kind` for `request`; nil when the bundle id cannot make one.
    static func topic(for kind: Delivery.Kind, _ request: NotificationRequest) -> Topic? {
        let pushType: PushType = kind == .activity || kind == .pushToStart ? .liveactivity : request.pushType
        return try? Topic(bundleID: request.bundleID, pushType: pushType)
    }

    private static func broadcast(
        _ broadcast: Broadcast, of delivery: Delivery, client: APNsClient, metrics: GatewayMetrics
    )
        async -> [DeliveryOutcome]
    {
        metrics.addInFlight(1)
        let started = EventLoop.now()
        let result: DeliveryOutcome.Result?
        do {
            _ = try await client.broadcast(broadcast)
            result = .succeeded(apnsUniqueID: nil)
        } catch {
            result = .of(error)
        }
        metrics.addInFlight(-1)
        guard let result else { return [] }
        let labels = result.metricsLabels
        metrics.recordSend(labels.status, reason: labels.reason, microseconds: (EventLoop.now() &- started) / 1000)
        return [DeliveryOutcome(delivery, result: result)]
    }
}

/// The notifications of one batch for one client, sent through `sendEach`, and their outcomes.
final class SendRound: @unchecked Sendable {
    // SAFETY: filled by `add` before `run`; during `run`, `sendEach` calls `next` and `onResult`
    // one at a time (on the transport's loop), and `run` reads `outcomes` after `sendEach` has
    // returned (its continuation orders those accesses). Nothing else touches the fields.
    private let client: APNsClient
    private let metrics: GatewayMetrics
    private var notifications: [APNsNotification] = []
    private var deliveries: [Delivery] = []
    private var positions: [APNsID: Int] = [:]
    /// When each notification was handed to the client (`EventLoop.now()`, nanoseconds).
    private var started: [UInt64] = []
    private var nextPosition = 0
    private var outcomes: [DeliveryOutcome] = []

    init(client: APNsClient, metrics: GatewayMetrics) {
        self.client = client
        self.metrics = metrics
    }

    func add(_ notification: APNsNotification, of delivery: Delivery) {
        if let id = notification.apnsID { positions[id] = notifications.count }
        notifications.append(notification)
        deliveries.append(delivery)
    }

    func run(concurrency: Int) async -> [DeliveryOutcome] {
        started = [UInt64](repeating: 0, count: notifications.count)
        outcomes.reserveCapacity(notifications.count)
        await client.sendEach(concurrency: concurrency, next: next, onResult: finished)
        return outcomes
    }

    private func next() -> APNsNotification? {
        guard nextPosition < notifications.count else { return nil }
        let position = nextPosition
        nextPosition += 1
        started[position] = EventLoop.now()
        metrics.addInFlight(1)
        return notifications[position]
    }

    private func finished(_ notification: consuming APNsNotification, _ result: Result<APNsResponse, APNsClientError>) {
        metrics.addInFlight(-1)
        guard let id = notification.apnsID, let position = positions[id] else { return }
        guard let outcome = DeliveryOutcome.Result.of(result) else { return }
        let labels = outcome.metricsLabels
        metrics.recordSend(
            labels.status, reason: labels.reason, microseconds: (EventLoop.now() &- started[position]) / 1000)
        outcomes.append(DeliveryOutcome(deliveries[position], result: outcome))
    }
}
