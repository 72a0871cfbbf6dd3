/*
 * Baseline for the import benchmark: the C importer a user would write instead of ecbrates.
 * libxml2's SAX2 parser feeds one prepared INSERT OR REPLACE, in one transaction, into a table
 * keyed on (date, currency); the rate is kept as its exact text. No checks beyond libxml2's.
 * Like an ecbrates store, the table is also indexed on (currency, date), and like ecbrates
 * importing into an empty store, it builds that index after the load.
 *
 * usage: c_importer FILE STORE      prints {"seconds": S, "rates": N}
 */
#include <libxml/parser.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static sqlite3_stmt *insert;
static char day[16];
static long rates;

static void start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                  int namespaceCount, const xmlChar **namespaces, int attributeCount, int defaulted,
                  const xmlChar **attributes) {
    const xmlChar *currency = NULL, *currencyEnd = NULL, *rate = NULL, *rateEnd = NULL;
    for (int i = 0; i < attributeCount; i++) {
        const char *name = (const char *)attributes[i * 5];
        const xmlChar *value = attributes[i * 5 + 3], *end = attributes[i * 5 + 4];
        if (strcmp(name, "time") == 0 && end - value < (long)sizeof day) {
            memcpy(day, value, end - value);
            day[end - value] = 0;
        } else if (strcmp(name, "currency") == 0) { currency = value; currencyEnd = end; }
        else if (strcmp(name, "rate") == 0) { rate = value; rateEnd = end; }
    }
    if (currency && rate) {
        sqlite3_bind_text(insert, 1, day, -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 2, (const char *)currency, (int)(currencyEnd - currency), SQLITE_TRANSIENT);
        sqlite3_bind_text(insert, 3, (const char *)rate, (int)(rateEnd - rate), SQLITE_TRANSIENT);
        sqlite3_step(insert);
        sqlite3_reset(insert);
        rates++;
    }
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: c_importer FILE STORE\n"); return 64; }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sqlite3 *db;
    if (sqlite3_open(argv[2], &db) != SQLITE_OK) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); return 74; }
    sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS rates (date TEXT NOT NULL, currency TEXT NOT NULL, rate TEXT NOT NULL,"
                     " PRIMARY KEY (date, currency))", 0, 0, 0);
    sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO rates (date, currency, rate) VALUES (?, ?, ?)", -1, &insert, 0);
    sqlite3_exec(db, "BEGIN", 0, 0, 0);
    xmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    handler.initialized = XML_SAX2_MAGIC;
    handler.startElementNs = start;
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 66; }
    static char buffer[1 << 16];
    size_t count = fread(buffer, 1, 4, file);
    xmlParserCtxtPtr context = xmlCreatePushParserCtxt(&handler, NULL, buffer, (int)count, argv[1]);
    xmlCtxtUseOptions(context, XML_PARSE_NONET);
    while ((count = fread(buffer, 1, sizeof buffer, file)) > 0) xmlParseChunk(context, buffer, (int)count, 0);
    xmlParseChunk(context, NULL, 0, 1);
    int wellFormed = context->wellFormed;
    xmlFreeParserCtxt(context);
    fclose(file);
    if (!wellFormed) { sqlite3_exec(db, "ROLLBACK", 0, 0, 0); fprintf(stderr, "%s: not well-formed\n", argv[1]); return 65; }
    sqlite3_exec(db, "CREATE INDEX IF NOT EXISTS rates_currency ON rates (currency, date)", 0, 0, 0);
    if (sqlite3_exec(db, "COMMIT", 0, 0, 0) != SQLITE_OK) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); return 74; }
    sqlite3_finalize(insert);
    sqlite3_close(db);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("{\"seconds\": %.6f, \"rates\": %ld}\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, rates);
    return 0;
}
