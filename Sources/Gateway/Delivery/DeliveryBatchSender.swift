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
        // A fan-out's batch is one notification to one environment: its request, topic, encoded
        // payload, client and round are looked up once, not per delivery (one comparison of ids).
        var current: Prepared?
        func fail(_ delivery: Delivery, _ reason: Reason) {
            outcomes.append(DeliveryOutcome(delivery, result: .failed(reason: reason, timestamp: nil)))
            metrics.recordSend(.failed, reason: reason.rawValue, microseconds: nil)
        }
        for delivery in claim.deliveries {
            if current?.notification != delivery.notificationID || current?.environment != delivery.environment {
                guard let stored = claim.notifications[delivery.notificationID] else {
                    fail(delivery, GatewayReason.malformedRecipient)
                    continue
                }
                let key = APNsConnections.Key(bundleID: stored.request.bundleID, environment: delivery.environment)
                let client = connections.client(bundleID: key.bundleID, environment: key.environment)
                let round = client.map { client in
                    rounds[key] ?? SendRound(client: client, metrics: metrics, capacity: claim.deliveries.count)
                }
                rounds[key] = round
                current = Prepared(stored, environment: delivery.environment, client: client, round: round)
            }
            guard let prepared = current else { continue }
            if inactive.contains(delivery.id) {
                fail(delivery, GatewayReason.tokenNotActive)
                continue
            }
            guard let client = prepared.client, let round = prepared.round else {
                fail(delivery, GatewayReason.noClient)
                continue
            }
            if delivery.kind == .channel {
                let request = prepared.request
                guard let channel = try? ChannelID(delivery.recipient) else {
                    fail(delivery, GatewayReason.malformedRecipient)
                    continue
                }
                broadcasts.append(
                    (
                        client, delivery,
                        Broadcast(
                            bundleID: request.bundleID, channelID: channel, priority: request.priority,
                            expiration: request.expiration, requestID: delivery.apnsID, payload: prepared.payload)
                    ))
                continue
            }
            guard let token = try? DeviceToken(hex: delivery.recipient),
                let topic = prepared.topic(for: delivery.kind)
            else {
                fail(delivery, GatewayReason.malformedRecipient)
                continue
            }
            round.add(
                APNsNotification(
                    token: token, topic: topic, pushType: prepared.request.pushType,
                    priority: prepared.request.priority, expiration: prepared.request.expiration,
                    collapseID: prepared.request.collapseID, apnsID: delivery.apnsID, payload: prepared.payload),
                of: delivery)
        }
        // The outcomes are moved, not copied: a fan-out's batch is one round's array.
        return await withTaskGroup(of: [DeliveryOutcome].self) { group in
            for round in rounds.values {
                group.addTask { await round.run(concurrency: concurrency) }
            }
            for (client, delivery, broadcast) in broadcasts {
                group.addTask {
                    await Self.broadcast(broadcast, of: delivery, client: client, metrics: metrics)
                }
            }
            for await sent in group {
                if outcomes.isEmpty {
                    outcomes = sent
                } else {
                    outcomes += sent
                }
            }
            return outcomes
        }
    }

    /// What the deliveries of one notification in one environment share (a class: a delivery
    /// takes a reference, not a copy of the request).
    private final class Prepared {
        let notification: NotificationID
        let environment: Environment
        let request: NotificationRequest
        /// Encoded once for every delivery of the notification.
        let payload: EncodedPayload
        /// Nil: no client for the app in this environment.
        let client: APNsClient?
        let round: SendRound?
        /// A device's topic; nil when the bundle id cannot make one.
        let deviceTopic: Topic?
        /// An activity's or push-to-start token's topic (`.liveactivity`).
        let liveActivityTopic: Topic?

        init(_ stored: StoredNotification, environment: Environment, client: APNsClient?, round: SendRound?) {
            notification = stored.id
            self.environment = environment
            request = stored.request
            payload = EncodedPayload(bytes: stored.request.payload)
            self.client = client
            self.round = round
            deviceTopic = DeliveryBatchSender.topic(for: .device, stored.request)
            liveActivityTopic = DeliveryBatchSender.topic(for: .activity, stored.request)
        }

        func topic(for kind: Delivery.Kind) -> Topic? {
            kind == .activity || kind == .pushToStart ? liveActivityTopic : deviceTopic
        }
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
