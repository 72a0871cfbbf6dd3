/*
 * Baseline for the reader benchmark: a minimal libxml2 SAX2 parse of an ECB file, fed in 64 KiB
 * chunks as the reader is, counting the rate elements and doing nothing else.
 *
 * usage: libxml2_sax FILE      prints {"seconds": S, "rates": N, "megabytes_per_second": M}
 */
#include <libxml/parser.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static long rates;

static void start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                  int namespaceCount, const xmlChar **namespaces, int attributeCount, int defaulted,
                  const xmlChar **attributes) {
    for (int i = 0; i < attributeCount; i++)
        if (strcmp((const char *)attributes[i * 5], "rate") == 0) rates++;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: libxml2_sax FILE\n"); return 64; }
    struct timespec t0, t1;
    struct stat info;
    stat(argv[1], &info);
    xmlInitParser();
    xmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    handler.initialized = XML_SAX2_MAGIC;
    handler.startElementNs = start;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 66; }
    static char buffer[1 << 16];
    size_t count = fread(buffer, 1, 4, file);
    xmlParserCtxtPtr context = xmlCreatePushParserCtxt(&handler, NULL, buffer, (int)count, argv[1]);
    xmlCtxtUseOptions(context, XML_PARSE_NONET);
    while ((count = fread(buffer, 1, sizeof buffer, file)) > 0) xmlParseChunk(context, buffer, (int)count, 0);
    xmlParseChunk(context, NULL, 0, 1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("{\"seconds\": %.6f, \"rates\": %ld, \"megabytes_per_second\": %.2f}\n", seconds, rates, info.st_size / 1048576.0 / seconds);
    xmlFreeParserCtxt(context);
    fclose(file);
    return 0;
}
