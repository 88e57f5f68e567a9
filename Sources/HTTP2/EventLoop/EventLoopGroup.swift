import Synchronization

/// A fixed set of event loops, one thread each, handed out round-robin.
///
/// Lifecycle: `init` starts every loop; ``shutdown()`` stops and joins them all. Loops keep running
/// until shut down, even when the group is released.
/// Thread-safety: `Sendable`; every member may be used from any thread.
public final class EventLoopGroup: Sendable {
    /// The loops, in creation order.
    public let loops: [EventLoop]
    private let counter = Atomic<UInt>(0)

    /// One loop per processor this process may run on (``System/activeProcessorCount()``).
    public static var defaultLoopCount: Int {
        System.activeProcessorCount()
    }

    /// Starts `loopCount` loops (at least one) named "`name`-0", "`name`-1", ...
    public init(loopCount: Int = EventLoopGroup.defaultLoopCount, name: String = "herald-loop")
        throws(SystemError)
    {
        var loops: [EventLoop] = []
        for index in 0..<max(1, loopCount) {
            do {
                loops.append(try EventLoop(name: "\(name)-\(index)"))
            } catch {
                for loop in loops { loop.shutdownGracefully() }
                throw error
            }
        }
        self.loops = loops
    }

    /// The next loop, round-robin.
    public func next() -> EventLoop {
        let ticket = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        return loops[Int(ticket % UInt(loops.count))]
    }

    /// Stops every loop and waits for their threads to end (see ``EventLoop/shutdown()``).
    public func shutdown() async {
        for loop in loops { await loop.shutdown() }
    }

    /// Stops every loop, blocking until their threads end (see ``EventLoop/shutdownGracefully()``).
    public func shutdownGracefully() {
        for loop in loops { loop.shutdownGracefully() }
    }
}
