import APNs

extension APNsClient {
    /// Sends every notification, at most `concurrency` at a time, and hands each result to
    /// `onResult` as it completes (completion order, one call at a time). Memory stays bounded by
    /// `concurrency` whatever the number of notifications: the next one is taken from the sequence
    /// only when one finishes, and a slow `onResult` slows the sending down.
    ///
    /// The loop that takes notifications from the sequence, collects results and calls `onResult`
    /// runs on one of the transport's event loops (when it has them), and so do the sending tasks:
    /// nothing hops between threads per notification. (Spreading the sending tasks over all loops
    /// would wake the collecting loop once per result.)
    public func sendAll<Notifications: Sequence>(
        _ notifications: Notifications, concurrency: Int = 1000,
        onResult: (APNsNotification, Result<APNsResponse, APNsClientError>) async -> Void
    ) async where Notifications.Element == APNsNotification {
        await sendAll(
            notifications, concurrency: concurrency,
            onPositionedResult: { _, notification, result in
                await onResult(notification, result)
            })
    }

    /// `sendAll` whose `onResult` is also given each notification's position in the sequence.
    private func sendAll<Notifications: Sequence>(
        _ notifications: Notifications, concurrency: Int,
        onPositionedResult onResult: (Int, Notification, Result<APNsResponse, APNsClientError>) async -> Void
    ) async where Notifications.Element == Notification {
        guard let executor = preferredTaskExecutor() else {
            await sendAll(notifications, concurrency: concurrency, on: nil, onResult: onResult)
            return
        }
        await withTaskExecutorPreference(executor) {
            await sendAll(notifications, concurrency: concurrency, on: executor, onResult: onResult)
        }
    }

    private func sendAll<Notifications: Sequence>(
        _ notifications: Notifications, concurrency: Int, on executor: (any TaskExecutor)?,
        onResult: (Int, Notification, Result<APNsResponse, APNsClientError>) async -> Void
    ) async where Notifications.Element == Notification {
        let limit = max(1, concurrency)
        var iterator = notifications.makeIterator()
        var taken = 0
        await withTaskGroup(of: (Int, Notification, Result<APNsResponse, APNsClientError>).self) { group in
            var running = 0
            var exhausted = false
            while true {
                while running < limit, !exhausted {
                    guard let notification = iterator.next() else {
                        exhausted = true
                        break
                    }
                    running += 1
                    let position = taken
                    taken += 1
                    group.addTask(executorPreference: executor) {
                        (position, notification, await self.result(for: notification))
                    }
                }
                guard running > 0, let (position, notification, result) = await group.next() else { return }
                running -= 1
                await onResult(position, notification, result)
            }
        }
    }
}

extension APNsClient {
    /// Sends the notifications `next` hands out (nil: no more), at most `concurrency` at a time,
    /// and hands each outcome to `onResult` (completion order): the bulk path, for streams of any
    /// length in bounded memory. Returns when every notification has ended.
    ///
    /// Over the HTTP/2 pool, `next` and `onResult` run on one of the transport's event loops, one
    /// call at a time, and no task is created per notification: keep them short and non-blocking
    /// (a slow one holds the loop, and so the sending). `onResult` gets the notification as sent,
    /// with the apns-id it was given. With another transport this is `sendAll`.
    public func sendEach(
        concurrency: Int = 1000, next: @escaping () -> APNsNotification?,
        onResult: @escaping (consuming APNsNotification, Result<APNsResponse, APNsClientError>) -> Void
    ) async {
        await sendEach(
            concurrency: concurrency, next: next,
            onPositionedResult: { _, notification, result in
                onResult(notification, result)
            })
    }

    /// `sendEach` that also tells `onPositionedResult` each notification's position: its place in
    /// the order `next` handed it out (0 for the first). A caller that keeps what it sends in an
    /// array finds a result's own entry by it, without a look-up by apns-id.
    public func sendEach(
        concurrency: Int = 1000, next: @escaping () -> APNsNotification?,
        onPositionedResult onResult:
            @escaping (
                _ position: Int, consuming APNsNotification, Result<APNsResponse, APNsClientError>
            ) -> Void
    ) async {
        guard let http2 else {
            await sendAll(
                AnyIterator(next), concurrency: concurrency,
                onPositionedResult: { position, notification, result in onResult(position, notification, result) })
            return
        }
        let pool = http2.pickPool()
        let sender = BulkSender(client: self, pool: pool, limit: concurrency, next: next, onResult: onResult)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            if pool.loop.inEventLoop {
                sender.start(done)
            } else if !pool.loop.execute({ sender.start(done) }) {
                done.resume()  // the loop has stopped: the transport was shut down
            }
        }
    }
}
