/// The in-memory state an emulator answers from, and the store that keeps it, if any.
struct EmulatorState: Sendable {
    let log: DeliveryLog
    let tokens: TokenRegistry
    let channels: ChannelStore
    let devices: DeviceRegistry
    let status: StoreStatus?

    /// Fresh state in memory only: nothing is written anywhere (the emulator's behaviour without a store).
    init(configuration: EmulatorConfiguration, clock: EmulatorClock) {
        log = DeliveryLog(capacity: configuration.deliveryLogCapacity)
        tokens = TokenRegistry(limit: configuration.unregisteredTokenLimit)
        channels = ChannelStore(limitPerApp: configuration.channelLimitPerApp)
        devices = DeviceRegistry(unregistered: tokens, clock: clock.seconds, millisecondClock: clock.milliseconds)
        status = nil
    }

    /// State loaded from `store` (the newest `deliveryLogCapacity` log entries and the total, the
    /// unregistered tokens, the live channels and every channel id issued, the simulated devices with
    /// what hangs on them), writing changes back to it.
    /// Starts the log's writer thread; `shutdown` stops it.
    init(configuration: EmulatorConfiguration, store: any EmulatorStore, clock: EmulatorClock) throws {
        let status = StoreStatus(describing: store)
        let capacity = max(1, configuration.deliveryLogCapacity)
        let (entries, total) = try store.loadDeliveries(newest: capacity)
        let writer = try DeliveryLogWriter(
            store: store, capacity: capacity, total: total, settings: configuration.deliveryLogWriteBehind)
        tokens = TokenRegistry(
            restoring: try store.unregisteredTokens(), store: store, status: status, writer: writer,
            limit: configuration.unregisteredTokenLimit)
        channels = ChannelStore(
            limitPerApp: configuration.channelLimitPerApp, restoring: try store.liveChannels(),
            issued: try store.issuedChannelIDs(), store: store, status: status, clock: clock.milliseconds)
        devices = try DeviceRegistry(
            unregistered: tokens, clock: clock.seconds, millisecondClock: clock.milliseconds, restoringFrom: store,
            status: status)
        log = DeliveryLog(capacity: capacity, restoring: entries, total: total, writer: writer)
        self.status = status
    }

    /// Writes what the log's writer holds and stops its thread.
    func shutdown() async {
        await tokens.flush()
        await log.writer?.shutdown()
    }
}
