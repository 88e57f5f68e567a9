import APNs

extension ControlAPI {
    /// `storage` in `GET /control/v1/stats`: the store and what its writes did.
    ///
    /// `{"kind":"sqlite","path":"herald-data/emulator.sqlite","written":N,"pending":N,"dropped":N,
    /// "batches":N,"errors":N,"lastError":"..."}`: `written` log entries are in the store, `pending`
    /// wait for the writer, `dropped` never reached it (the writer fell behind, or a write failed);
    /// `errors` counts failed writes, the log's batches and the write-through ones alike.
    func storageStats(_ store: StoreStatus) -> JSONValue {
        var object = JSONObject()
        object["kind"] = .string(store.kind)
        if let path = store.path { object["path"] = .string(path) }
        let writer = log.writer?.stats ?? DeliveryLogWriter.Stats()
        object["written"] = .number(JSONNumber(writer.written))
        object["pending"] = .number(JSONNumber(writer.pending))
        object["dropped"] = .number(JSONNumber(writer.dropped))
        object["batches"] = .number(JSONNumber(writer.batches))
        object["errors"] = .number(JSONNumber(writer.failures + store.failureCount))
        if let last = store.lastError ?? writer.lastError { object["last-error"] = .string(last) }
        return .object(object)
    }
}
