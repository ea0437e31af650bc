import ArgumentParser
import IngestKit
import IngestPostgres

/// `--db URI`, the PostgreSQL database `--to postgres` writes to: one option, parsed
/// and checked the same way by every command that writes there (`ingest import`,
/// `ingest feed`).
struct PostgresOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "With --to postgres, the database: postgresql://user@host:5432/name, postgresql:///name?host=/run/postgresql, or host=HOST dbname=NAME; the PG* variables fill in the rest ('' takes everything from them). The password comes from PGPASSWORD or ~/.pgpass, never from here.",
            valueName: "uri"))
    var db: String?

    /// Where `--db` points, completed from the `PG*` variables; `.usage` for a
    /// malformed string or one with a password.
    func settings() throws -> PostgresConnectionSettings {
        try PostgresConnectionSettings(db ?? "")
    }

    /// Checks `--db` against the command's `--to` and `--out`: with `--to postgres`
    /// there is no file to name and, unless nothing is written (`connects` false: a
    /// dry run), a well-formed `--db` is needed; with any other `--to`, `--db` has no
    /// place.
    ///
    /// - Parameters:
    ///   - to: the `--to` given, as typed (`postgres`, `db`, `json`…).
    ///   - out: the `--out` given, if any.
    ///   - connects: whether the run connects to the database.
    func validate(to: String, out: String?, connects: Bool = true) throws {
        guard to == "postgres" else {
            if db != nil {
                throw ValidationError(
                    "--db names a PostgreSQL database: it needs --to postgres (--out names the file of --to \(to)).")
            }
            return
        }
        if out != nil {
            throw ValidationError("--out names a file; --to postgres writes to the database --db names: drop --out.")
        }
        guard connects else { return }
        guard db != nil else {
            throw ValidationError(
                "--to postgres needs --db: a URI such as postgresql:///mydb or postgresql://user@host/mydb ('' takes the connection from the PG* variables)."
            )
        }
        do {
            _ = try settings()
        } catch let error as IngestError {
            throw ValidationError("--db: " + Diagnostics.describe(error))
        }
    }
}
