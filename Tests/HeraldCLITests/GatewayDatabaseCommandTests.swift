import Foundation
import Gateway
import HeraldCLI
import HeraldTestSupport
import Testing

/// `herald gateway --database` (and HERALD_DATABASE_URL): the command line, its errors, and the key
/// and import commands on a real PostgreSQL (the test server).
@Suite(.timeLimit(.minutes(3)))
struct GatewayDatabaseCommandTests {
    @Test func theDatabaseComesFromTheFlagOrTheEnvironment() throws {
        let url = "postgres://herald@db.internal/herald"
        let flagged = try GatewayParseTests.options(["--database", url] + GatewayParseTests.app)
        #expect(flagged.database?.conninfo == url && flagged.dataDirectory == nil)
        let fromEnvironment = try GatewayParseTests.options(
            ["key", "list"], environment: ["HERALD_DATABASE_URL": "host=/tmp/pg dbname=herald"])
        #expect(fromEnvironment.database?.conninfo == "host=/tmp/pg dbname=herald")
        let both = try GatewayParseTests.options(["--database", url, "--data-dir", "d"] + GatewayParseTests.app)
        #expect(both.database?.conninfo == url && both.dataDirectory == "d", "serving: the admin key goes to d")
    }

    @Test(arguments: [
        (["--database", "mysql://u@h/db"], "--database 'mysql://u@h/db' has the scheme 'mysql'"),
        (["--database", "just-a-name"], "is neither a URL nor a connection string"),
        (["--database", ""], "--database is empty"),
        ([], "or --database (a PostgreSQL URL)"),
        (
            ["key", "list", "--database", "postgres://h/db", "--data-dir", "d"],
            "--data-dir cannot be given with --database here"
        ),
    ])
    func badDatabaseFlagsAreNamed(_ arguments: [String], _ message: String) throws {
        let error = try #require(throws: UsageError.self) {
            try GatewayParseTests.options(arguments + GatewayParseTests.app)
        }
        #expect("\(error)".contains(message), "\(error)")
    }

    @Test func aPasswordIsNeverShown() throws {
        #expect(GatewayDatabase.redactedForTests("postgres://ana:s3cret@db:5432/x") == "postgres://ana:***@db:5432/x")
        #expect(
            GatewayDatabase.redactedForTests("postgres://db/x?user=ana&password=s3cret")
                == "postgres://db/x?user=ana&password=***")
        #expect(GatewayDatabase.redactedForTests("host=db password=s3cret dbname=x") == "host=db password=*** dbname=x")
        #expect(GatewayDatabase.redactedForTests("postgres://ana@db/x") == "postgres://ana@db/x")
    }

    @Test func anUnreachableServerIsAStartFailureNamingTheFlag() throws {
        let scratch = try GatewayScratch()
        // Port 1 on loopback: nothing listens there.
        let run = try HeraldBinary.run(
            ["gateway", "--listen", "127.0.0.1:0", "--database", "postgres://ana:s3cret@127.0.0.1:1/herald"]
                + scratch.appFlags)
        #expect(run.status == 1, "\(run)")
        #expect(
            run.stderr.hasPrefix(
                "herald gateway: --database: cannot open the database postgres://ana:***@127.0.0.1:1/herald"),
            "\(run.stderr)")
        #expect(!run.stderr.contains("s3cret"))
        let keys = try HeraldBinary.run(["gateway", "key", "list", "--database", "postgres://127.0.0.1:1/herald"])
        #expect(keys.status == 1 && keys.stderr.hasPrefix("herald gateway: --database: "), "\(keys)")
    }

    @Test func keysAndDevicesLiveInTheDatabase() throws {
        let database = try PostgresTestServer.makeDatabase()
        let created = try HeraldBinary.run(["gateway", "key", "create", "--scope", "admin", "--database", database])
        #expect(created.status == 0 && created.stdout.hasPrefix("hk_"), "\(created)")
        let listed = try HeraldBinary.run(
            ["gateway", "key", "list", "--json"], environment: ["HERALD_DATABASE_URL": database])
        #expect(listed.status == 0 && listed.stdout.contains(#""scope":"admin""#), "\(listed)")

        let scratch = try GatewayScratch()
        let token = String(repeating: "d5", count: 32)
        let file = try scratch.write(
            "devices.ndjson",
            #"{"token":"\#(token)","user":"ana","tags":["a","b"]}"# + "\n" + #"{"token":"zz"}"# + "\n")
        let imported = try HeraldBinary.run([
            "gateway", "devices", "import", "--database", database, "--topic", "com.example.app", "--production", file,
        ])
        #expect(imported.status == 1, "one line refused: \(imported)")
        #expect(
            imported.stdout.contains("imported 1 registrations in 1 transactions; 1 of 2 lines refused"), "\(imported)")
        #expect(imported.stdout.contains("com.example.app: 1 devices in the store, 1 more than before"), "\(imported)")
    }
}

extension GatewayDatabase {
    /// What an error message shows of `text`.
    static func redactedForTests(_ text: String) -> String {
        (try? GatewayDatabase(text))?.redacted ?? "not accepted: \(text)"
    }
}
