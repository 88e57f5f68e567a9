import CPostgres

extension PostgresConnection {
    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws (the
    /// error is rethrown). Nested calls become savepoints, rolled back alone.
    ///
    /// The isolation is the server's default (READ COMMITTED): statements that must not interleave
    /// with another connection's lock their rows (`SELECT ... FOR UPDATE`, `SKIP LOCKED` for queues).
    @discardableResult
    public func transaction<R>(_ body: () throws -> R) throws -> R {
        let savepoint = "herald_\(transactionDepth)"
        try execute(transactionDepth == 0 ? "BEGIN" : "SAVEPOINT \(savepoint)")
        transactionDepth += 1
        let result: R
        do {
            result = try body()
        } catch {
            transactionDepth -= 1
            // A failed rollback (the connection is gone) leaves nothing better to report than the
            // body's error; the server rolls back a transaction whose session ended.
            if transactionDepth == 0 {
                try? execute("ROLLBACK")
            } else {
                try? execute("ROLLBACK TO SAVEPOINT \(savepoint); RELEASE SAVEPOINT \(savepoint)")
            }
            throw error
        }
        transactionDepth -= 1
        // COMMIT of a transaction in which a statement failed rolls it back without an error:
        // a body that caught a statement's error must not look committed.
        if transactionDepth == 0, pq.transactionStatus(handle) == PQTRANS_INERROR {
            try? execute("ROLLBACK")
            throw PostgresError(
                operation: "commit", message: "a statement of the transaction failed; it was rolled back")
        }
        do {
            try execute(transactionDepth == 0 ? "COMMIT" : "RELEASE SAVEPOINT \(savepoint)")
        } catch {
            if transactionDepth == 0, isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
        return result
    }

    /// True while a transaction is open (or failed and not yet rolled back) on this connection.
    public var isInTransaction: Bool {
        let status = pq.transactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }
}
