import HTTP2

/// The requests a `LoopPool` holds, from `perform` until their continuation is resumed, in a
/// reused table: per request no object, no closure, no hashing. A ticket is the slot's index plus
/// a generation, so a ticket that comes back after its request finished (a late completion, a
/// stale entry in the waiting queue) is recognised and ignored.
///
/// Loop-confined, like the pool.
struct RequestSlots {
    typealias Continuation = UnsafeContinuation<Result<RawResponse, APNsClientError>, Never>
    /// A device push's sender (`APNsClient.send`), which hears its answer decoded.
    typealias DecodedContinuation = UnsafeContinuation<Result<APNsResponse, APNsClientError>, Never>

    struct Slot {
        var request: APNsRequest?
        /// The request's apns-id (kept apart: reading it does not copy the request).
        var apnsID = ""
        /// A device push (its answer carries apns-id, never a broadcast's or a channel's ids).
        var isNotification = false
        /// Who hears the outcome; nil while the slot is free.
        var completion: RequestCompletion?
        /// When the request times out (`EventLoop.now()` ns).
        var deadline: UInt64 = 0
        var timeout: Duration = .zero
        /// Times it went back to the queue because the server refused it unprocessed.
        var resends = 0
        var generation: UInt32 = 0
    }

    private var slots: [Slot] = []
    private var free: [Int] = []
    /// Requests held.
    private(set) var count = 0

    /// Takes a request in; returns its ticket.
    mutating func acquire(
        _ request: APNsRequest, timeout: Duration, deadline: UInt64, completion: RequestCompletion
    ) -> UInt64 {
        let index: Int
        if let reused = free.popLast() {
            index = reused
        } else {
            index = slots.count
            slots.append(Slot())
        }
        slots[index].request = request
        slots[index].apnsID = request.apnsID
        slots[index].isNotification = request.isNotification
        slots[index].completion = completion
        slots[index].deadline = deadline
        slots[index].timeout = timeout
        slots[index].resends = 0
        count += 1
        return UInt64(slots[index].generation) << 32 | UInt64(index)
    }

    /// The slot's index, if `ticket` names a request still held.
    func index(_ ticket: UInt64) -> Int? {
        let index = Int(ticket & 0xFFFF_FFFF)
        guard index < slots.count, slots[index].generation == UInt32(truncatingIfNeeded: ticket >> 32),
            slots[index].completion != nil
        else { return nil }
        return index
    }

    subscript(index: Int) -> Slot {
        _read { yield slots[index] }
        _modify { yield &slots[index] }
    }

    /// `release` for a request the server answered: also hands over its apns-id (moved out of the
    /// slot, not copied) and whether it is a device push.
    mutating func releaseAnswered(_ ticket: UInt64) -> (
        completion: RequestCompletion, sentID: String, isNotification: Bool
    )? {
        guard let index = index(ticket), let completion = slots[index].completion else { return nil }
        var sentID = ""
        swap(&sentID, &slots[index].apnsID)
        let isNotification = slots[index].isNotification
        slots[index].completion = nil
        slots[index].request = nil
        slots[index].generation &+= 1
        free.append(index)
        count -= 1
        return (completion, sentID, isNotification)
    }

    /// Lets the request go; returns its completion for the caller to carry out (once).
    mutating func release(_ ticket: UInt64) -> RequestCompletion? {
        guard let index = index(ticket), let completion = slots[index].completion else { return nil }
        slots[index].completion = nil
        slots[index].request = nil
        slots[index].apnsID = ""
        slots[index].generation &+= 1
        free.append(index)
        count -= 1
        return completion
    }
}

/// Tickets waiting for a stream, first in first out, with room to put a resent one back in front.
struct TicketQueue {
    private var items: [UInt64] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }
    var count: Int { items.count - head }

    mutating func append(_ ticket: UInt64) {
        items.append(ticket)
    }

    mutating func prepend(_ ticket: UInt64) {
        if head > 0 {
            head -= 1
            items[head] = ticket
        } else {
            items.insert(ticket, at: 0)
        }
    }

    mutating func popFirst() -> UInt64? {
        guard head < items.count else { return nil }
        let ticket = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        return ticket
    }

    /// Drops the tickets for which `remove` is true (the others keep their order).
    mutating func removeAll(where remove: (UInt64) -> Bool) {
        items = items[head...].filter { !remove($0) }
        head = 0
    }
}
