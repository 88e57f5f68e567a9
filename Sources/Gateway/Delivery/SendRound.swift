// One batch's notifications for one client, sent through `sendEach` (the bulk path), and their
// outcomes.
//
//   add (the batch sender's task) -> notifications[i], deliveries[i]
//   run -> client.sendEach:
//     next     -> notifications[i] moved out to the client, started[i] = now
//     onResult -> position i (the order `next` handed it out) -> deliveries[i] moved into its
//                 outcome; a success counted in the round's tally, anything else in the metrics
//                 (the in-flight gauge at once)
//   run returns -> the tally added to the metrics, the outcomes handed back
//
// A delivery's apns-id is its row's: the notification carries it, and a resend inside the client
// sends it again. Positions, not apns-ids, find a result's delivery, and each slot is moved out
// once (the client ends every notification exactly once), so nothing is copied or looked up by
// key per delivery.
import APNs
import APNsClient
import HTTP2

/// The notifications of one batch for one client, sent through `sendEach`, and their outcomes.
final class SendRound: @unchecked Sendable {
    // SAFETY: filled by `add` before `run`; during `run`, `sendEach` calls `next` and `onResult`
    // one at a time (on the transport's loop), and `run` reads `outcomes` and `tally` after
    // `sendEach` has returned (its continuation orders those accesses). Nothing else touches the
    // fields.
    private let client: APNsClient
    private let metrics: GatewayMetrics
    /// Moved out when handed to the client.
    private var notifications: [APNsNotification?] = []
    /// Moved into its outcome when its send ends.
    private var deliveries: [Delivery?] = []
    /// When each notification was handed to the client (`EventLoop.now()`, nanoseconds).
    private var started: [UInt64] = []
    private var nextPosition = 0
    private var outcomes: [DeliveryOutcome] = []
    /// Successes not yet in the metrics: added every `tallyBatch` results and when the round ends.
    private var tally = GatewayMetrics.SendTally()
    private var untallied = 0
    private static let tallyBatch = 64

    init(client: APNsClient, metrics: GatewayMetrics, capacity: Int = 0) {
        self.client = client
        self.metrics = metrics
        notifications.reserveCapacity(capacity)
        deliveries.reserveCapacity(capacity)
    }

    func add(_ notification: consuming APNsNotification, of delivery: Delivery) {
        notifications.append(notification)
        deliveries.append(delivery)
    }

    func run(concurrency: Int) async -> [DeliveryOutcome] {
        started = [UInt64](repeating: 0, count: notifications.count)
        outcomes.reserveCapacity(notifications.count)
        await client.sendEach(concurrency: concurrency, next: next, onPositionedResult: finished)
        metrics.add(&tally)
        return outcomes
    }

    private func next() -> APNsNotification? {
        guard nextPosition < notifications.count else { return nil }
        let position = nextPosition
        nextPosition += 1
        started[position] = EventLoop.now()
        metrics.addInFlight(1)
        return notifications[position].take()
    }

    private func finished(
        _ position: Int, _ notification: consuming APNsNotification, _ result: Result<APNsResponse, APNsClientError>
    ) {
        metrics.addInFlight(-1)
        guard deliveries.indices.contains(position), let delivery = deliveries[position].take() else { return }
        guard let outcome = DeliveryOutcome.Result.of(result) else { return }
        let microseconds = (EventLoop.now() &- started[position]) / 1000
        if case .succeeded = outcome {
            tally.countSuccess(microseconds: microseconds)
        } else {
            let labels = outcome.metricsLabels
            metrics.recordSend(labels.status, reason: labels.reason, microseconds: microseconds)
        }
        untallied += 1
        if untallied >= Self.tallyBatch {
            metrics.add(&tally)
            untallied = 0
        }
        outcomes.append(DeliveryOutcome(delivery, result: outcome))
    }
}
