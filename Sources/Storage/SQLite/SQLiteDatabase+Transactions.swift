import CSQLite

extension SQLiteDatabase {
    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws (the
    /// error is rethrown). Nested calls become savepoints, rolled back alone.
    ///
    /// The outermost transaction is `BEGIN IMMEDIATE`: it takes the write lock up front, so a
    /// concurrent writer waits (busy timeout) at the start instead of failing halfway.
    @discardableResult
    public func transaction<R>(_ body: () throws -> R) throws -> R {
        let savepoint = "herald_\(transactionDepth)"
        try execute(transactionDepth == 0 ? "BEGIN IMMEDIATE" : "SAVEPOINT \(savepoint)")
        transactionDepth += 1
        let result: R
        do {
            result = try body()
        } catch {
            transactionDepth -= 1
            // A failed rollback leaves nothing better to report than the body's error.
            if transactionDepth == 0 {
                try? execute("ROLLBACK")
            } else {
                try? execute("ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
            }
            throw error
        }
        transactionDepth -= 1
        do {
            try execute(transactionDepth == 0 ? "COMMIT" : "RELEASE \(savepoint)")
        } catch {
            if transactionDepth == 0, sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
        return result
    }

    /// True while a transaction is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}
