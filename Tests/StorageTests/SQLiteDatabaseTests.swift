import Glibc
import Storage
import Testing

/// The SQLite wrapper: typed round trips, statements, errors that name the operation.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteDatabaseTests {
    static let values: [SQLiteValue] = [
        .integer(0), .integer(Int.max), .integer(Int.min), .integer(-1),
        .real(0.5), .real(-1e300), .real(.infinity),
        .text(""), .text("héllo ☃"), .text("a\u{0}b"),
        .blob([]), .blob([0, 1, 2, 255]), .blob(Array(repeating: 7, count: 100_000)),
        .null,
    ]

    @Test(arguments: values)
    func everyTypeRoundTrips(_ value: SQLiteValue) throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (v)")
        try database.run("INSERT INTO t (v) VALUES (?)", [value])
        #expect(try database.query("SELECT v FROM t") { $0.value(0) } == [value])
    }

    @Test func typedBindsAndColumnsRoundTrip() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (i INTEGER, d REAL, s TEXT, b BLOB, n)")
        let statement = try database.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
        try statement.bind(42, at: 1)
        try statement.bind(2.25, at: 2)
        try statement.bind("text", at: 3)
        try statement.bind([9, 8, 7] as [UInt8], at: 4)
        try statement.bind(nil as Int?, at: 5)
        #expect(try statement.step() == false)
        let rows = try database.query("SELECT i, d, s, b, n FROM t") { row in
            (row.int(0), row.double(1), row.string(2), row.bytes(3), row.isNull(4), row.int(4))
        }
        let row = try #require(rows.first)
        #expect(row.0 == 42 && row.1 == 2.25 && row.2 == "text" && row.3 == [9, 8, 7] && row.4 && row.5 == nil)
    }

    @Test func anEmptyBlobIsNotNull() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (b BLOB)")
        try database.run("INSERT INTO t VALUES (?)", [.blob([])])
        #expect(try database.query("SELECT b IS NULL, b FROM t") { ($0.int(0), $0.bytes(1)) }.first?.0 == 0)
    }

    @Test func cachedStatementsAreReusedAndReset() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (v INTEGER)")
        for value in 0..<1000 { try database.run("INSERT INTO t VALUES (?)", [.integer(value)]) }
        #expect(
            try database.query("SELECT count(*), sum(v) FROM t") { [$0.int(0), $0.int(1)] }.first == [1000, 499_500])
        #expect(database.changes == 1)
        #expect(database.lastInsertRowID == 1000)
    }

    @Test func pragmasAreSetOnOpen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = try SQLiteDatabase(path: directory.file("a.sqlite"))
        #expect(try database.query("PRAGMA journal_mode") { $0.string(0) } == ["wal"])
        #expect(try database.query("PRAGMA foreign_keys") { $0.int(0) } == [1])
        #expect(try database.query("PRAGMA synchronous") { $0.int(0) } == [1], "NORMAL")
    }

    @Test func aPageSizeAppliesToANewFileOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var options = SQLiteDatabase.Options()
        options.pageSize = 16384
        let fresh = try SQLiteDatabase(path: directory.file("a.sqlite"), options: options)
        try fresh.execute("CREATE TABLE t (v INTEGER)")
        #expect(try fresh.query("PRAGMA page_size") { $0.int(0) } == [16384])
        #expect(try fresh.query("PRAGMA journal_mode") { $0.string(0) } == ["wal"])
        do {
            let old = try SQLiteDatabase(path: directory.file("b.sqlite"))
            try old.execute("CREATE TABLE t (v INTEGER)")
        }
        let reopened = try SQLiteDatabase(path: directory.file("b.sqlite"), options: options)
        #expect(try reopened.query("PRAGMA page_size") { $0.int(0) } == [4096], "an existing file keeps its size")
    }

    @Test func foreignKeysAreEnforced() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (p INTEGER REFERENCES p(id))")
        let error = try #require(throws: SQLiteError.self) { try database.run("INSERT INTO c VALUES (1)") }
        #expect(error.operation == "step")
        #expect(error.message.contains("FOREIGN KEY"))
        #expect(error.description.contains("INSERT INTO c VALUES (1)"))
    }

    @Test(arguments: [
        ("SELEC 1", "prepare", "syntax error"),
        ("SELECT * FROM missing", "prepare", "no such table: missing"),
    ])
    func badSQLNamesTheOperationAndSQLitesMessage(_ sql: String, _ operation: String, _ message: String) throws {
        let database = try SQLiteDatabase(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) { try database.run(sql) }
        #expect(error.operation == operation)
        #expect(error.subject == sql)
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func aWrongNumberOfValuesIsAnError() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) { try database.run("SELECT ?, ?", [.integer(1)]) }
        #expect(error.description == #"SQLite bind "SELECT ?, ?": 1 values given for 2 parameters"#)
    }

    /// A blob read in place: stored whole, the cached statement usable again, and the same count
    /// check as every run.
    @Test(arguments: [0, 3, 1_048_576])
    func aBlobRunInPlaceIsStoredAndUnbound(count: Int) throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (i INTEGER, b BLOB)")
        let blob = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(try database.run("INSERT INTO t VALUES (?, ?)", [.integer(1)], blob: blob) == 1)
        #expect(try database.query("SELECT i, b FROM t") { [$0.value(0), $0.value(1)] } == [[.integer(1), .blob(blob)]])
        #expect(try database.run("INSERT INTO t VALUES (?, ?)", [.integer(2)], blob: [7]) == 1)
        #expect(try database.query("SELECT i, b FROM t WHERE i = 2") { [$0.value(0), $0.value(1)] } == [[.integer(2), .blob([7])]])
        let error = try #require(throws: SQLiteError.self) {
            try database.run("INSERT INTO t VALUES (?, ?)", [], blob: blob)
        }
        #expect(error.message == "1 values given for 2 parameters")
    }

    @Test func aFileThatIsNotADatabaseIsAClearError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("corrupt.sqlite")
        let file = try #require(fopen(path, "w"))
        fputs(String(repeating: "not a database, just text. ", count: 200), file)
        fclose(file)
        let error = try #require(throws: SQLiteError.self) { try SQLiteDatabase(path: path) }
        #expect(error.operation == "open" && error.subject == path)
        #expect(error.message.contains("not a database"), "\(error)")
        #expect(error.primaryCode == 26, "SQLITE_NOTADB")
    }

    @Test func aMissingDirectoryIsAClearError() throws {
        let error = try #require(throws: SQLiteError.self) {
            try SQLiteDatabase(path: "/nonexistent-herald-dir/x.sqlite")
        }
        #expect(error.operation == "open")
        #expect(error.subject == "/nonexistent-herald-dir/x.sqlite")
        #expect(error.message.contains("unable to open"), "\(error)")
    }

    @Test func aDirectoryInPlaceOfTheFileIsAClearError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let error = try #require(throws: SQLiteError.self) { try SQLiteDatabase(path: directory.path) }
        #expect(error.operation == "open")
        #expect(error.message.contains("unable to open"), "\(error)")
    }

    @Test func aReadOnlyConnectionRefusesWritesWithAClearError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("a.sqlite")
        try SQLiteDatabase(path: path).execute("CREATE TABLE t (v)")
        var options = SQLiteDatabase.Options()
        options.readOnly = true
        let database = try SQLiteDatabase(path: path, options: options)
        let error = try #require(throws: SQLiteError.self) { try database.run("INSERT INTO t VALUES (1)") }
        #expect(error.operation == "step")
        #expect(error.message.contains("readonly"), "\(error)")
    }
}
