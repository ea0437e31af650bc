import Foundation
import IngestCore
import PostgresTestServer
import IngestPostgres
import Testing

/// Connection strings and `PG*` variables, resolved as libpq resolves them. Pure code: no server.
@Suite struct ConnectionSettingsTests {
    typealias Endpoint = PostgresConnectionSettings.Endpoint
    let defaultSocket = PostgresConnectionSettings.defaultSocketDirectory

    func settings(_ string: String, _ environment: [String: String] = [:]) throws -> PostgresConnectionSettings {
        try PostgresConnectionSettings(
            string, environment: environment, systemUser: "osuser", homeDirectory: "/nonexistent")
    }

    func usageError(_ string: String, _ environment: [String: String] = [:]) -> IngestError? {
        do {
            _ = try settings(string, environment)
            return nil
        } catch let error as IngestError {
            return error
        } catch {
            return nil
        }
    }

    @Test func aFullURI() throws {
        let s = try settings("postgresql://loader@db.example:5433/feeds")
        #expect(s.endpoints == [Endpoint(host: "db.example", port: 5433)])
        #expect(s.user == "loader")
        #expect(s.database == "feeds")
        #expect(s.sslMode == .prefer)
        #expect(s.connectTimeout == 10)
        #expect(s.applicationName == "ingest")
        #expect(try settings("postgres://loader@db.example:5433/feeds") == s)
    }

    @Test func aUnixSocketGivenAsAQueryParameterOrAnEncodedHost() throws {
        let query = try settings("postgresql:///feeds?host=/run/postgresql&user=me")
        #expect(query.endpoints == [Endpoint(host: "/run/postgresql", port: 5432)])
        #expect(query.endpoints[0].isUnixSocket)
        #expect(query.endpoints[0].socketPath == "/run/postgresql/.s.PGSQL.5432")
        #expect(query.user == "me")
        #expect(query.database == "feeds")
        let encoded = try settings("postgresql://%2Fvar%2Flib%2Fpostgresql:6000/feeds")
        #expect(encoded.endpoints == [Endpoint(host: "/var/lib/postgresql", port: 6000)])
        #expect(encoded.endpoints[0].socketPath == "/var/lib/postgresql/.s.PGSQL.6000")
    }

    @Test func partsArePercentDecodedAndPlusStaysPlus() throws {
        let s = try settings("postgresql://J%C3%BCrgen%40home@h/my%20db+x?application_name=nightly%2Fimport")
        #expect(s.user == "Jürgen@home")
        #expect(s.database == "my db+x")
        #expect(s.applicationName == "nightly/import")
    }

    @Test func badPercentEncodingIsAUsageError() {
        for string in ["postgresql://h/db%2", "postgresql://h/db%zz", "postgresql://h/db%00x", "postgresql://h/%C3"] {
            let error = usageError(string)
            #expect(error?.kind == .usage, "\(string)")
        }
        #expect(usageError("postgresql://h/db%00x")?.message.contains("%00") == true)
    }

    @Test func aPasswordAnywhereInTheStringIsRefusedWithTheWayToGiveIt() {
        for string in [
            "postgresql://me:secret@h/db", "postgresql://me:@h/db", "postgresql://h/db?password=secret",
            "host=h password=secret", "host=h password='a b'"
        ] {
            let error = usageError(string)
            #expect(error?.kind == .usage, "\(string)")
            #expect(error?.message.contains("PGPASSWORD") == true, "\(string)")
            #expect(error?.message.contains("~/.pgpass") == true, "\(string)")
            #expect(error?.message.contains("secret") == false, "the message must not repeat the password")
        }
    }

    @Test func ipv6AddressesInBrackets() throws {
        let s = try settings("postgresql://[::1]:6543/db")
        #expect(s.endpoints == [Endpoint(host: "::1", port: 6543)])
        #expect(s.endpoints[0].description == "[::1]:6543")
        #expect(try settings("postgresql://[2001:db8::7]/db").endpoints == [Endpoint(host: "2001:db8::7", port: 5432)])
        #expect(usageError("postgresql://[::1/db")?.kind == .usage)
        #expect(usageError("postgresql://[]/db")?.kind == .usage)
    }

    @Test func severalHostsAreTriedInTurnWithOneOrOnePortEach() throws {
        let each = try settings("postgresql://a:5001,b:5002,[::1]:5003/db")
        #expect(
            each.endpoints == [
                Endpoint(host: "a", port: 5001), Endpoint(host: "b", port: 5002), Endpoint(host: "::1", port: 5003)
            ])
        let shared = try settings("host=a,b port=6000 dbname=db")
        #expect(shared.endpoints == [Endpoint(host: "a", port: 6000), Endpoint(host: "b", port: 6000)])
        let defaults = try settings("postgresql://a,/db")
        #expect(defaults.endpoints == [Endpoint(host: "a", port: 5432), Endpoint(host: defaultSocket, port: 5432)])
        let error = usageError("host=a,b,c port=1,2")
        #expect(error?.message.contains("2 ports were given for 3 hosts") == true)
    }

    @Test func queryParametersSetOptionsAndOverrideTheAddress() throws {
        let s = try settings(
            "postgresql://user@ignored:1/db?host=real&port=7000&dbname=other&sslmode=require&connect_timeout=30&application_name=cron"
        )
        #expect(s.endpoints == [Endpoint(host: "real", port: 7000)])
        #expect(s.database == "other")
        #expect(s.sslMode == .require)
        #expect(s.connectTimeout == 30)
        #expect(s.applicationName == "cron")
        #expect(try settings("postgresql://h/db?ssl=true").sslMode == .require)
    }

    @Test func unknownOptionsAreRefusedNotIgnored() {
        let uri = usageError("postgresql://h/db?sslmod=require")
        #expect(uri?.kind == .usage)
        #expect(uri?.message.contains("sslmod") == true)
        #expect(uri?.message.contains("sslmode") == true, "the message lists what is known")
        #expect(usageError("hots=localhost")?.message.contains("hots") == true)
        #expect(usageError("postgresql://h/db?novalue")?.kind == .usage)
    }

    @Test func theEnvironmentFillsWhatTheStringLeavesOut() throws {
        let environment = [
            "PGHOST": "envhost", "PGPORT": "6001", "PGUSER": "envuser", "PGDATABASE": "envdb",
            "PGSSLMODE": "disable", "PGCONNECT_TIMEOUT": "7", "PGAPPNAME": "envapp"
        ]
        let fromEnvironment = try settings("", environment)
        #expect(fromEnvironment.endpoints == [Endpoint(host: "envhost", port: 6001)])
        #expect(fromEnvironment.user == "envuser")
        #expect(fromEnvironment.database == "envdb")
        #expect(fromEnvironment.sslMode == .disable)
        #expect(fromEnvironment.connectTimeout == 7)
        #expect(fromEnvironment.applicationName == "envapp")

        let overridden = try settings(
            "postgresql://me@h:5/db?sslmode=verify-full&connect_timeout=0&application_name=mine", environment)
        #expect(overridden.endpoints == [Endpoint(host: "h", port: 5)])
        #expect(overridden.user == "me")
        #expect(overridden.database == "db")
        #expect(overridden.sslMode == .verifyFull)
        #expect(overridden.connectTimeout == nil, "0 waits indefinitely")
        #expect(overridden.applicationName == "mine")

        // A URI with only a database still takes the host, port and user from the environment.
        let partial = try settings("postgresql:///only", environment)
        #expect(partial.endpoints == [Endpoint(host: "envhost", port: 6001)])
        #expect(partial.database == "only")
        #expect(partial.user == "envuser")
    }

    @Test func libpqDefaultsWhenNothingIsGiven() throws {
        let s = try settings("")
        #expect(s.endpoints == [Endpoint(host: defaultSocket, port: 5432)])
        #expect(s.user == "osuser")
        #expect(s.database == "osuser", "the database defaults to the user name")
        #expect(s.sslMode == .prefer)
        #expect(s.applicationName == "ingest")
        #expect(s.passwordFilePath == "/nonexistent/.pgpass")
        #expect(try settings("host=h fallback_application_name=fallback").applicationName == "fallback")
        #expect(
            try settings("host=h fallback_application_name=fallback", ["PGAPPNAME": "env"]).applicationName == "env")
    }

    @Test func connectTimeoutFollowsLibpq() throws {
        #expect(try settings("connect_timeout=0").connectTimeout == nil)
        #expect(try settings("connect_timeout=-3").connectTimeout == nil)
        #expect(try settings("connect_timeout=1").connectTimeout == 2, "libpq waits at least 2 seconds")
        #expect(try settings("connect_timeout=45").connectTimeout == 45)
        #expect(try settings("", ["PGCONNECT_TIMEOUT": " 12 "]).connectTimeout == 12)
        let error = usageError("connect_timeout=soon")
        #expect(error?.kind == .usage)
        #expect(error?.message.contains("soon") == true)
    }

    @Test func sslModesAndTheirMeaning() throws {
        for mode in SSLMode.allCases {
            #expect(try settings("sslmode=\(mode.rawValue)").sslMode == mode)
        }
        #expect(!SSLMode.prefer.requiresEncryption)
        #expect(!SSLMode.allow.requiresEncryption)
        #expect(SSLMode.require.requiresEncryption)
        #expect(SSLMode.verifyFull.requiresEncryption)
        let error = usageError("postgresql://h/db?sslmode=always")
        #expect(error?.message.contains("always") == true)
        #expect(error?.message.contains("verify-full") == true)
        #expect(
            usageError("", ["PGSSLMODE": "on"])?.message.contains("PGSSLMODE") == true,
            "the message names where the value came from")
    }

    @Test func portsMustBeNumbersInRange() {
        for string in ["postgresql://h:http/db", "port=0", "port=65536", "port=-1"] {
            #expect(usageError(string)?.kind == .usage, "\(string)")
        }
        #expect(usageError("", ["PGPORT": "abc"])?.message.contains("PGPORT") == true)
    }

    @Test func keywordValueStringsWithQuotesAndEscapes() throws {
        let s = try settings(
            #"  host = localhost port=5433 dbname='my db' user=o\'neil application_name='it\'s \\ done'  "#)
        #expect(s.endpoints == [Endpoint(host: "localhost", port: 5433)])
        #expect(s.database == "my db")
        #expect(s.user == "o'neil")
        #expect(s.applicationName == #"it's \ done"#)
        #expect(usageError("dbname='open")?.kind == .usage)
        #expect(usageError("host localhost port=5")?.message.contains("missing \"=\" after \"host\"") == true)
        #expect(
            try settings("dbname=''", ["PGDATABASE": "env"]).database == "env", "an empty value counts as not given")
    }

    @Test func aBareWordIsADatabaseName() throws {
        let s = try settings("feeds", ["PGHOST": "/run/pg"])
        #expect(s.database == "feeds")
        #expect(s.endpoints == [Endpoint(host: "/run/pg", port: 5432)])
    }

    @Test func theDescriptionIsAURIWithoutPasswordThatParsesBack() throws {
        let environment = ["PGPASSWORD": "hunter2"]
        for string in [
            "postgresql://me@db.example:5433/feeds", "postgresql:///feeds?host=/run/postgresql&user=me",
            "postgresql://a%20b@[::1]:7/d%2Fb", "host=/tmp,/run port=1,2 dbname=x user=y"
        ] {
            let s = try settings(string, environment)
            #expect(!s.description.contains("hunter2"))
            let again = try settings(s.description, environment)
            #expect(again.endpoints == s.endpoints, "\(s.description)")
            #expect(again.user == s.user)
            #expect(again.database == s.database)
        }
    }

    // MARK: passwords

    @Test func pgpasswordComesFirst() throws {
        try withTemporaryFile(contents: "*:*:*:*:fromfile\n") { path in
            let s = try settings("postgresql://me@h/db", ["PGPASSWORD": "fromenv", "PGPASSFILE": path])
            var warnings: [String] = []
            #expect(s.password(for: s.endpoints[0], warnings: &warnings) == "fromenv")
            let t = try settings("postgresql://me@h/db", ["PGPASSFILE": path])
            #expect(t.password(for: t.endpoints[0], warnings: &warnings) == "fromfile")
            // An empty PGPASSWORD is unset to libpq: the file still gives the password.
            let u = try settings("postgresql://me@h/db", ["PGPASSWORD": "", "PGPASSFILE": path])
            #expect(u.password(for: u.endpoints[0], warnings: &warnings) == "fromfile")
            #expect(warnings.isEmpty)
        }
    }

    @Test func passwordFileLinesMatchAsLibpqMatchesThem() {
        let file = PasswordFile(
            path: "test",
            contents: """
                # comment: *:*:*:*:never
                db.example:5432:feeds:loader:first
                db.example:5432:feeds:loader:second (never: the first match wins)
                db.example:*:*:loader:any-port-any-db
                /run/postgresql:5432:*:me:socket-dir
                localhost:5432:*:me:default-socket
                weird\\:host:5432:*:me:escaped\\:colon\\\\and\\slash
                *:*:*:short
                *:*:*:*:fallback:ignored-after-unescaped-colon

                """)
        #expect(file.password(host: "db.example", port: "5432", database: "feeds", user: "loader") == "first")
        #expect(file.password(host: "db.example", port: "6000", database: "other", user: "loader") == "any-port-any-db")
        #expect(file.password(host: "/run/postgresql", port: "5432", database: "x", user: "me") == "socket-dir")
        #expect(file.password(host: "localhost", port: "5432", database: "x", user: "me") == "default-socket")
        #expect(
            file.password(host: "weird:host", port: "5432", database: "x", user: "me") == #"escaped:colon\andslash"#)
        #expect(
            file.password(host: "DB.EXAMPLE", port: "5432", database: "feeds", user: "loader") == "fallback",
            "matching is exact")
        #expect(
            file.password(host: "other", port: "1", database: "d", user: "short") == "fallback",
            "a line with too few fields never matches")
        #expect(
            PasswordFile(path: "empty", contents: "").password(host: "h", port: "1", database: "d", user: "u") == nil)
        #expect(
            PasswordFile(path: "crlf", contents: "h:1:d:u:pw\r\n").password(
                host: "h", port: "1", database: "d", user: "u") == "pw")
        #expect(
            PasswordFile(path: "star", contents: "*x:1:d:u:pw\n").password(
                host: "h", port: "1", database: "d", user: "u") == nil,
            "only a field that is exactly * is a wildcard")
    }

    @Test func theDefaultSocketDirectoryIsLocalhostInThePasswordFile() throws {
        try withTemporaryFile(contents: "localhost:5432:*:me:local\n/elsewhere:5432:*:me:elsewhere\n") { path in
            let local = try settings("user=me", ["PGPASSFILE": path])
            var warnings: [String] = []
            #expect(local.endpoints[0].host == defaultSocket)
            #expect(local.password(for: local.endpoints[0], warnings: &warnings) == "local")
            let other = try settings("host=/elsewhere user=me", ["PGPASSFILE": path])
            #expect(other.password(for: other.endpoints[0], warnings: &warnings) == "elsewhere")
            let viaKeyword = try settings("host=/elsewhere user=me passfile=\(path)")
            #expect(viaKeyword.password(for: viaKeyword.endpoints[0], warnings: &warnings) == "elsewhere")
        }
    }

    @Test func aPasswordFileOthersCanReadIsIgnoredWithAWarning() throws {
        try withTemporaryFile(contents: "*:*:*:*:exposed\n", permissions: 0o644) { path in
            let s = try settings("postgresql://me@h/db", ["PGPASSFILE": path])
            var warnings: [String] = []
            #expect(s.password(for: s.endpoints[0], warnings: &warnings) == nil)
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains("group or world access") == true)
            #expect(warnings.first?.contains("0600") == true)
        }
        try withTemporaryFile(contents: "*:*:*:*:private\n", permissions: 0o400) { path in
            let s = try settings("postgresql://me@h/db", ["PGPASSFILE": path])
            var warnings: [String] = []
            #expect(
                s.password(for: s.endpoints[0], warnings: &warnings) == "private", "read-only for the owner is fine")
        }
        let missing = try settings("postgresql://me@h/db", ["PGPASSFILE": "/nonexistent/pgpass"])
        var warnings: [String] = []
        #expect(missing.password(for: missing.endpoints[0], warnings: &warnings) == nil)
        #expect(warnings.isEmpty, "no password file is not worth a warning")
        let directory = try settings("postgresql://me@h/db", ["PGPASSFILE": "/tmp"])
        #expect(directory.password(for: directory.endpoints[0], warnings: &warnings) == nil)
        #expect(warnings.first?.contains("not a plain file") == true)
    }
}
