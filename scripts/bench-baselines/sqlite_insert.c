/*
 * Baseline for the ManagedStore insert benchmark: the same rows (a date, a three-letter code and
 * a decimal as text, plus the primary key and row version ManagedStore keeps) written with one
 * prepared sqlite3 INSERT, in transactions of `batch` rows, WAL mode, synchronous=NORMAL: the
 * cost of SQLite alone, with no objects around it.
 *
 * usage: sqlite_insert STORE [COUNT [BATCH]]   prints {"seconds": S, "objects_per_second": R}
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: sqlite_insert STORE [COUNT [BATCH]]\n"); return 64; }
    const char *path = argv[1];
    long count = argc > 2 ? atol(argv[2]) : 221000, batch = argc > 3 ? atol(argv[3]) : 1000;
    char wal[4096], shm[4096];
    snprintf(wal, sizeof wal, "%s-wal", path);
    snprintf(shm, sizeof shm, "%s-shm", path);
    unlink(path); unlink(wal); unlink(shm);

    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); return 74; }
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                     "CREATE TABLE Sample (Z_PK INTEGER PRIMARY KEY, Z_OPT INTEGER NOT NULL,"
                     " day REAL NOT NULL, code TEXT NOT NULL, value TEXT NOT NULL)", 0, 0, 0);
    sqlite3_stmt *insert;
    sqlite3_prepare_v2(db, "INSERT INTO Sample VALUES (?, ?, ?, ?, ?)", -1, &insert, 0);
    char codes[31][4], values[100][16];
    for (int i = 0; i < 31; i++) { codes[i][0] = 'A' + i % 26; codes[i][1] = 'A' + i / 26; codes[i][2] = 'X'; codes[i][3] = 0; }
    for (int i = 0; i < 100; i++) snprintf(values[i], sizeof values[i], "1.%d", 1000 + i * 37);

    double start = now();
    for (long first = 0; first < count; first += batch) {
        sqlite3_exec(db, "BEGIN IMMEDIATE", 0, 0, 0);
        for (long i = first; i < first + batch && i < count; i++) {
            sqlite3_bind_int64(insert, 1, i + 1);
            sqlite3_bind_int64(insert, 2, 1);
            sqlite3_bind_double(insert, 3, (double)(i / 31) * 86400);
            sqlite3_bind_text(insert, 4, codes[i % 31], 3, SQLITE_TRANSIENT);
            sqlite3_bind_text(insert, 5, values[i % 100], -1, SQLITE_TRANSIENT);
            if (sqlite3_step(insert) != SQLITE_DONE) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); return 74; }
            sqlite3_reset(insert);
        }
        if (sqlite3_exec(db, "COMMIT", 0, 0, 0) != SQLITE_OK) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); return 74; }
    }
    double seconds = now() - start;
    sqlite3_finalize(insert);
    sqlite3_close(db);
    printf("{\"seconds\": %.6f, \"objects_per_second\": %.1f}\n", seconds, count / seconds);
    return 0;
}
