import HeraldTestSupport
import Postgres
import Testing

/// The libpq wrapper against a real PostgreSQL (scripts/postgres-test-server, one per test process).
// The first test to run starts the server (about a second alone, more on a loaded machine).
@Suite(.timeLimit(.minutes(2)))
struct PostgresConnectionTests {
    @Test(arguments: [
        ("text", PostgresValue.text("héllo, 'world'; --")),
        ("text", .text("")),
        ("integer", .int(Int32.min)),
        ("integer", .int(-1)),
        ("bigint", .bigint(Int64.max)),
        ("bigint", .bigint(Int64.min)),
        ("bytea", .bytea([0, 1, 0x7f, 0x80, 0xff])),
        ("bytea", .bytea([])),
        ("boolean", .bool(true)),
        ("boolean", .bool(false)),
    ])
    func aValueRoundTripsThroughATable(_ type: String, _ value: PostgresValue) throws {
        let connection = try PostgresConnection(try PostgresTestServer.makeDatabase())
        try connection.execute("CREATE TABLE t (v \(type))")
        #expect(try connection.run("INSERT INTO t (v) VALUES ($1)", [value]) == 1)
        let row = try #require(try connection.query("SELECT v FROM t").first)
        #expect(!row.isNull(0), "an empty text or bytea is not NULL")
        switch value {
        case .text(let text): #expect(try row.string(0) == text)
        case .int(let number): #expect(try row.int(0) == Int(number))
        case .bigint(let number): #expect(try row.int(0) == Int(number))
        case .bytea(let bytes): #expect(try row.bytes(0) == bytes)
        case .bool(let flag): #expect(try row.bool(0) == flag)
        case .textArray, .optionalTextArray, .bigintArray, .null: Issue.record("not a case of this test")
        }
        #expect(try connection.query("SELECT count(*) FROM t WHERE v = $1", [value]).first?.int(0) == 1)
    }

    @Test(arguments: [[], ["a"], ["x, y", "\"quoted\"", "{braces}", "", "back\\slash", "NULL", "ünï"]])
    func aTextArrayArrivesElementByElement(_ strings: [String]) throws {
        let connection = try PostgresConnection(try PostgresTestServer.makeDatabase())
        let rows = try connection.query(
            "SELECT value FROM unnest($1::text[]) WITH ORDINALITY AS t(value, n) ORDER BY n", [.textArray(strings)])
        #expect(try rows.map { try $0.string(0) } == strings)
        #expect(
            try connection.query("SELECT 'x, y' = ANY($1)", [.textArray(strings)]).first?.bool(0)
                == strings.contains("x, y"))
    }

    @Test(arguments: [[], [0], [Int64.min, -1, 1, 1 << 40, Int64.max]])
    func aBigintArrayArrivesElementByElement(_ numbers: [Int64]) throws {
        let connection = try PostgresConnection(try PostgresTestServer.makeDatabase())
        let rows = try connection.query(
            "SELECT value FROM unnest($1::bigint[]) WITH ORDINALITY AS t(value, n) ORDER BY n", [.bigintArray(numbers)])
        #expect(try rows.map { try $0.int(0) } == numbers.map { Int($0) })
        #expect(
            try connection.query("SELECT 1 = ANY($1)", [.bigintArray(numbers)]).first?.bool(0) == numbers.contains(1))
    }

    @Test func anOptionalTextArrayKeepsItsNulls() throws {
        let connection = try PostgresConnection(try PostgresTestServer.makeDatabase())
        let values: [String?] = ["a", nil, "", "NULL", nil]
        let rows = try connection.query(
            "SELECT value, value IS NULL FROM unnest($1::text[]) WITH ORDINALITY AS t(value, n) ORDER BY n",
            [.optionalTextArray(values)])
        #expect(try rows.map { try $0.string(0) } == values)
        #expect(try rows.map { try $0.bool(1) } == values.map { $0 == nil })
    }

    @Test func nullsAreNilWhateverTheType() throws {
        let connection = try PostgresConnection(try PostgresTestServer.makeDatabase())
        try connection.execute("CREATE TABLE t (a text, b bigint, c bytea, d boolean)")
        try connection.run("INSERT INTO t VALUES ($1, $2, $3, $4)", [.null, PostgresValue(nil as Int?), .null, .null])
        let row = try #require(try connection.query("SELECT a, b, c, d FROM t").first)
        #expect(row.count == 4 && row.columnNames == ["a", "b", "c", "d"])
        #expect((0..<4).allSatisfy(row.isNull))
        #expect(try row.string(0) == nil && row.int(1) == nil && row.bytes(2) == nil && row.bool(3) == nil)
        #expect(try connection.query("SELECT count(*) FROM t WHERE a IS NULL AND b IS NULL").first?.int(0) == 1)
    }

    @Test func aDuplicateKeyIsAUniqueViolationNamingTheStatement() throws {
        let connection = try PostgresConnection(try PostgresTestServer.makeDatabase())
        try connection.execute("CREATE TABLE devices (token text PRIMARY KEY)")
        let insert = "INSERT INTO devices (token) VALUES ($1)"
        try connection.run(insert, [.text("ab")])
        let error = try #require(throws: PostgresError.self) { try connection.run(insert, [.text("ab")]) }
        #expect(error.sqlState == PostgresError.SQLState.uniqueViolation && error.sqlStateClass == "23")
        #expect(error.statement == insert && error.operation == "run" && !error.connectionLost)
        #expect(error.detail == "Key (token)=(ab) already exists.")
        #expect(error.description.contains("duplicate key value violates unique constraint"))
        #expect(try connection.run(insert, [.text("cd")]) == 1, "the connection goes on after an error")
    }

    @Test func aSyntaxErrorHasItsSQLState() throws {
        let connection = try PostgresConnection(try PostgresTestServer.makeDatabase())
        let error = try #require(throws: PostgresError.self) { try connection.query("SELEKT 1") }
        #expect(error.sqlState == PostgresError.SQLState.syntaxError && error.operation == "prepare")
        #expect(error.message.contains("syntax error at or near \"SELEKT\""))
        let missing = try #require(throws: PostgresError.self) { try connection.execute("SELECT * FROM nowhere") }
        #expect(missing.sqlState == PostgresError.SQLState.undefinedTable)
    }

    @Test func aValueOfTheWrongFormIsReportedWithItsColumn() throws {
        let connection = try PostgresConnection(try PostgresTestServer.makeDatabase())
        let row = try #require(try connection.query("SELECT 'abc'::text AS word, 'x'::text AS flag").first)
        let error = try #require(throws: PostgresError.self) { try row.int(0) }
        #expect(error.operation == "read" && error.message == "column 0 (word) holds 'abc', not an integer")
        #expect(throws: PostgresError.self) { try row.bool(1) }
        #expect(throws: PostgresError.self) { try row.string(2) }
    }

    @Test func aParameterOfTheWrongTypeIsRefusedNotConverted() throws {
        let connection = try PostgresConnection(try PostgresTestServer.makeDatabase())
        try connection.execute("CREATE TABLE t (n bigint)")
        let error = try #require(throws: PostgresError.self) {
            try connection.query("SELECT * FROM t WHERE n = $1", [.text("1")])
        }
        #expect(error.sqlState == "42883", "operator does not exist: bigint = text")
        #expect(try connection.query("SELECT * FROM t WHERE n = $1", [.int(1)]).isEmpty, "int4 widens to int8")
    }

    @Test func preparedStatementsSurviveTheirCacheBeingEmptied() throws {
        var options = PostgresConnection.Options()
        options.statementCacheLimit = 2
        let connection = try PostgresConnection(try PostgresTestServer.makeDatabase(), options: options)
        for round in 0..<3 {
            for n in 0..<5 {
                let rows = try connection.query("SELECT $1::bigint + \(n)", [.bigint(Int64(round))])
                #expect(try rows.first?.int(0) == round + n)
            }
        }
    }
}
