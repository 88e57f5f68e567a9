import Storage
import Testing

/// Transactions commit or roll back as a whole; migrations run once, in order, and refuse the future.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteTransactionTests {
    struct Failure: Error {}

    func count(_ database: SQLiteDatabase) throws -> Int {
        try database.query("SELECT count(*) FROM t") { $0.int(0) ?? -1 }.first ?? -1
    }

    func database() throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (v INTEGER UNIQUE)")
        return database
    }

    @Test func aTransactionCommitsWhenItsBodyReturns() throws {
        let database = try database()
        let result = try database.transaction {
            try database.run("INSERT INTO t VALUES (1)")
            try database.run("INSERT INTO t VALUES (2)")
            return "done"
        }
        #expect(result == "done")
        #expect(try count(database) == 2)
        #expect(!database.isInTransaction)
    }

    @Test func aTransactionRollsBackWhenItsBodyThrows() throws {
        let database = try database()
        #expect(throws: Failure.self) {
            try database.transaction {
                try database.run("INSERT INTO t VALUES (1)")
                #expect(database.isInTransaction)
                throw Failure()
            }
        }
        #expect(try count(database) == 0)
        #expect(!database.isInTransaction)
    }

    @Test func aFailingStatementRollsBackTheWholeTransaction() throws {
        let database = try database()
        let error = try #require(throws: SQLiteError.self) {
            try database.transaction {
                try database.run("INSERT INTO t VALUES (1)")
                try database.run("INSERT INTO t VALUES (1)")
            }
        }
        #expect(error.message.contains("UNIQUE"))
        #expect(try count(database) == 0)
    }

    @Test func aNestedTransactionRollsBackAloneAsASavepoint() throws {
        let database = try database()
        try database.transaction {
            try database.run("INSERT INTO t VALUES (1)")
            try? database.transaction {
                try database.run("INSERT INTO t VALUES (2)")
                throw Failure()
            }
            try database.transaction { try database.run("INSERT INTO t VALUES (3)") }
        }
        #expect(try database.query("SELECT v FROM t ORDER BY v") { $0.int(0) } == [1, 3])
    }

    static let steps = [
        SQLiteMigration("1: t", sql: "CREATE TABLE t (v INTEGER)"),
        SQLiteMigration("2: u", sql: "CREATE TABLE u (w TEXT); INSERT INTO t VALUES (7)"),
    ]

    @Test func migrationsRunOnceInOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("m.sqlite")
        do {
            let database = try SQLiteDatabase(path: path)
            #expect(try database.userVersion == 0)
            #expect(try database.migrate(Array(Self.steps.prefix(1))) == 0)
            #expect(try database.userVersion == 1)
        }
        let database = try SQLiteDatabase(path: path)
        #expect(try database.migrate(Self.steps) == 1, "only step 2 runs")
        #expect(try database.migrate(Self.steps) == 2, "nothing runs")
        #expect(try database.userVersion == 2)
        #expect(try database.query("SELECT v FROM t") { $0.int(0) } == [7])
    }

    @Test func aFailingMigrationLeavesThePreviousVersion() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        let broken =
            Self.steps.prefix(1) + [SQLiteMigration("2: broken", sql: "CREATE TABLE u (w); CREATE TABLE u (w)")]
        let error = try #require(throws: SQLiteError.self) { try database.migrate(Array(broken)) }
        #expect(error.operation == "migrate")
        #expect(error.description.contains("2: broken") && error.description.contains("already exists"), "\(error)")
        #expect(try database.userVersion == 1)
        #expect(try database.query("SELECT count(*) FROM sqlite_master WHERE name = 'u'") { $0.int(0) } == [0])
    }

    @Test func aConvertingStepRunsAfterItsSQLAndRollsBackWithIt() throws {
        struct Failure: Error {}
        let database = try SQLiteDatabase(path: ":memory:")
        let converting = SQLiteMigration("2: doubled", sql: "CREATE TABLE u (w INTEGER)") { database in
            for value in try database.query("SELECT v FROM t", row: { $0.int(0) ?? 0 }) {
                try database.run("INSERT INTO u VALUES (?)", [.integer(2 * value)])
            }
        }
        try database.migrate(Array(Self.steps.prefix(1)))
        try database.run("INSERT INTO t VALUES (21)")
        let failing = SQLiteMigration("2: failing", sql: "CREATE TABLE u (w INTEGER)") { _ in throw Failure() }
        #expect(throws: SQLiteError.self) { try database.migrate(Array(Self.steps.prefix(1)) + [failing]) }
        #expect(try database.userVersion == 1, "the step's SQL rolled back with its conversion")
        try database.migrate(Array(Self.steps.prefix(1)) + [converting])
        #expect(try database.userVersion == 2)
        #expect(try database.query("SELECT w FROM u") { $0.int(0) } == [42])
    }

    @Test func aNewerSchemaIsRefused() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("PRAGMA user_version = 5")
        let error = try #require(throws: SQLiteError.self) { try database.migrate(Self.steps) }
        #expect(error.message.contains("version 5, newer than the 2"), "\(error)")
        #expect(try database.userVersion == 5)
    }
}
