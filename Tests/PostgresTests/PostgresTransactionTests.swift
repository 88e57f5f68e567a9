import HeraldTestSupport
import Postgres
import Testing

/// Transactions and savepoints against a real PostgreSQL.
@Suite(.timeLimit(.minutes(2)))
struct PostgresTransactionTests {
    struct Stop: Error {}

    private func counter() throws -> PostgresConnection {
        let connection = try PostgresConnection(try PostgresTestServer.makeDatabase())
        try connection.execute("CREATE TABLE t (n bigint PRIMARY KEY)")
        return connection
    }

    private func numbers(_ connection: PostgresConnection) throws -> [Int] {
        try connection.query("SELECT n FROM t ORDER BY n") { row throws(PostgresError) in try row.int(0) ?? -1 }
    }

    @Test func aTransactionCommitsWhenItsBodyReturns() throws {
        let connection = try counter()
        let inside = try connection.transaction {
            try connection.run("INSERT INTO t VALUES ($1), ($2)", [.bigint(1), .bigint(2)])
            return connection.isInTransaction
        }
        #expect(inside && !connection.isInTransaction)
        #expect(try numbers(connection) == [1, 2])
    }

    @Test func aTransactionRollsBackWhenItsBodyThrows() throws {
        let connection = try counter()
        #expect(throws: Stop.self) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES (1)")
                throw Stop()
            }
        }
        #expect(try !connection.isInTransaction && numbers(connection).isEmpty)
    }

    @Test func aFailedStatementRollsBackTheTransaction() throws {
        let connection = try counter()
        try connection.run("INSERT INTO t VALUES (1)")
        let error = try #require(throws: PostgresError.self) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES (2)")
                try connection.run("INSERT INTO t VALUES (1)")
            }
        }
        #expect(error.sqlState == PostgresError.SQLState.uniqueViolation)
        #expect(try numbers(connection) == [1])
    }

    @Test func aBodyThatSwallowsAFailedStatementDoesNotLookCommitted() throws {
        let connection = try counter()
        let error = try #require(throws: PostgresError.self) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES (5)")
                _ = try? connection.run("INSERT INTO t VALUES (5)")
            }
        }
        #expect(error.operation == "commit")
        #expect(try !connection.isInTransaction && numbers(connection).isEmpty)
    }

    @Test func aNestedTransactionRollsBackAlone() throws {
        let connection = try counter()
        try connection.transaction {
            try connection.run("INSERT INTO t VALUES (1)")
            #expect(throws: PostgresError.self) {
                try connection.transaction {
                    try connection.run("INSERT INTO t VALUES (2)")
                    try connection.run("INSERT INTO t VALUES (1)")
                }
            }
            try connection.transaction { try connection.run("INSERT INTO t VALUES (3)") }
        }
        #expect(try numbers(connection) == [1, 3])
    }
}
