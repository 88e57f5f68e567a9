import APNs
import HTTP2

extension Emulator {
    /// Starts serving like `start(_:host:port:tls:loops:clock:)`, with its state kept in `store`:
    /// the delivery log (its newest `deliveryLogCapacity` entries and its total), unregistered tokens,
    /// broadcast channels and simulated devices (offline, with what waits for them) are loaded from it
    /// first, and changes go back to it -- the log written behind in batches on its own thread
    /// (`configuration.deliveryLogWriteBehind`), the rest at once.
    /// `shutdown()` writes what is still waiting.
    ///
    /// Throws `EmulatorStoreError` when the store cannot be read, `SystemError` when the writer
    /// thread cannot start, `HTTP2ConnectionError` when the server cannot listen.
    public static func start(
        _ configuration: EmulatorConfiguration, store: any EmulatorStore, host: String = "127.0.0.1",
        port: UInt16 = 0, tls: TLSContext? = nil, loops: EventLoopGroup,
        clock: (@Sendable () -> Int)? = nil, millisecondClock: (@Sendable () -> Int)? = nil
    ) async throws -> Emulator {
        let clock = EmulatorClock.resolve(seconds: clock, milliseconds: millisecondClock)
        let state = try EmulatorState(configuration: configuration, store: store, clock: clock)
        do {
            return try await start(
                configuration, state: state, host: host, port: port, tls: tls, loops: loops, clock: clock)
        } catch {
            await state.shutdown()
            throw error
        }
    }

    /// Writes the delivery log entries still waiting for the store; returns once they are written.
    /// (Without a store there is nothing to write.)
    public func flushStore() async {
        await log.writer?.flush()
    }
}
