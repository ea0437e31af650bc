/* sqlite-floor.c: what SQLite costs on its own to store people.csv's rows as ingest
 * stores people.json's: the floor under any `--to db` of those rows, which no parser
 * or mapping can go below.
 *
 *   cc -O2 Benchmarks/sqlite-floor.c -lsqlite3 -o /tmp/sqlite-floor
 *   /usr/bin/time -f '%e s %M KB' /tmp/sqlite-floor people.csv floor.db
 *
 * It does what ingest's SQLite writer does, with nothing around it: a new file,
 * opened without the connection's mutex (as GRDB opens ingest's), with ingest's
 * pragmas (no journal, no syncs, an exclusive lock); the table ingest makes of
 * people.json (the same columns and types); one prepared INSERT of sixteen rows
 * (`VALUES (…), (…), …`, as ingest's SQLiteRowGroup) and one of a row for the rows
 * left at the end, values bound in place (SQLITE_STATIC) as integers, reals and
 * text; and a commit every 50,000 rows, the rows waiting in a group going in
 * first. Reading the rows costs what `fgets` and splitting each line at its eight
 * commas cost (the generator's rows have no comma inside a field; a quoted field is
 * stored with its quotes, which changes no length that matters here). It prints the
 * rows stored.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { columns = 9, batch = 50000, group = 16 };

static void check(sqlite3 *db, int status, const char *what) {
    if (status == SQLITE_OK || status == SQLITE_DONE) return;
    fprintf(stderr, "sqlite-floor: %s: %s\n", what, sqlite3_errmsg(db));
    exit(74);
}

/* A row waiting for its statement: its line, split in place. */
struct row {
    char line[1 << 16];
    char *field[columns];
    int size[columns];
};

/* Binds `row`'s values to parameters `first + 1` on. */
static void bind(sqlite3_stmt *insert, int first, const struct row *row) {
    sqlite3_bind_int64(insert, first + 1, strtoll(row->field[0], NULL, 10));
    sqlite3_bind_int64(insert, first + 2, row->field[1][0] == '1');
    for (int k = 2; k < 6; k++) sqlite3_bind_text(insert, first + k + 1, row->field[k], row->size[k], SQLITE_STATIC);
    sqlite3_bind_double(insert, first + 7, strtod(row->field[6], NULL));
    sqlite3_bind_text(insert, first + 8, row->field[7], row->size[7], SQLITE_STATIC);
    sqlite3_bind_text(insert, first + 9, row->field[8], row->size[8], SQLITE_STATIC);
}

static void run(sqlite3 *db, sqlite3_stmt *insert) {
    check(db, sqlite3_step(insert), "insert");
    sqlite3_reset(insert);
    sqlite3_clear_bindings(insert);
}

/* Inserts the `waiting` rows: in one statement when they are a full group, one by one when not. */
static void insert_waiting(sqlite3 *db, sqlite3_stmt *grouped, sqlite3_stmt *single, struct row *rows, int waiting) {
    if (waiting == group) {
        for (int r = 0; r < group; r++) bind(grouped, r * columns, &rows[r]);
        run(db, grouped);
        return;
    }
    for (int r = 0; r < waiting; r++) {
        bind(single, 0, &rows[r]);
        run(db, single);
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: sqlite-floor people.csv OUT.db\n");
        return 64;
    }
    FILE *input = fopen(argv[1], "r");
    if (!input) {
        perror(argv[1]);
        return 66;
    }
    unlink(argv[2]);
    sqlite3 *db;
    if (sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL)
        != SQLITE_OK) {
        fprintf(stderr, "sqlite-floor: cannot open %s\n", argv[2]);
        return 73;
    }
    check(db, sqlite3_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE",
        NULL, NULL, NULL), "pragmas");
    check(db, sqlite3_exec(db, "CREATE TABLE people (id INTEGER, active INTEGER, firstName TEXT, lastName TEXT, "
        "email TEXT, born TEXT, score REAL, bio TEXT, tags TEXT)", NULL, NULL, NULL), "create");
    char sql[64 * group];
    strcpy(sql, "INSERT INTO people VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (int r = 1; r < group; r++) strcat(sql, ", (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    sqlite3_stmt *insert, *single;
    check(db, sqlite3_prepare_v2(db, sql, -1, &insert, NULL), "prepare");
    check(db, sqlite3_prepare_v2(db, "INSERT INTO people VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &single, NULL),
        "prepare");

    static struct row waiting_rows[group];
    if (!fgets(waiting_rows[0].line, sizeof waiting_rows[0].line, input)) return 65; /* the header */
    long rows = 0;
    int waiting = 0;
    check(db, sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), "begin");
    while (fgets(waiting_rows[waiting].line, sizeof waiting_rows[0].line, input)) {
        struct row *row = &waiting_rows[waiting];
        char *line = row->line;
        size_t length = strlen(line);
        if (length && line[length - 1] == '\n') line[--length] = 0;
        char *p = line;
        for (int k = 0; k < columns; k++) {
            char *end = k < columns - 1 ? strchr(p, ',') : NULL;
            if (!end) end = line + length;
            row->field[k] = p;
            row->size[k] = (int)(end - p);
            p = end < line + length ? end + 1 : end;
        }
        rows++;
        if (++waiting == group) {
            insert_waiting(db, insert, single, waiting_rows, waiting);
            waiting = 0;
        }
        if (rows % batch == 0) {
            insert_waiting(db, insert, single, waiting_rows, waiting);
            waiting = 0;
            check(db, sqlite3_exec(db, "COMMIT; BEGIN IMMEDIATE", NULL, NULL, NULL), "commit");
        }
    }
    insert_waiting(db, insert, single, waiting_rows, waiting);
    check(db, sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), "commit");
    sqlite3_finalize(insert);
    sqlite3_finalize(single);
    check(db, sqlite3_close(db), "close");
    printf("%ld rows\n", rows);
    return 0;
}
