#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, whose headers clash with the ICU that Foundation ships. Only
// libxml2's encoding-handler struct uses ICU types, and Swift reaches it only through pointers,
// so hiding ICU here changes no layout Swift reads.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <dlfcn.h>
#include <stddef.h>

// libxml2 is loaded with dlopen when a file is first read, not linked: linked, it and the ICU
// and liblzma it depends on are mapped and relocated at every start of ecbrates, a millisecond
// of a query that never parses XML (scripts/bench).
typedef struct clibxml2_api {
    void (*init_parser)(void);
    xmlParserCtxtPtr (*create_push_parser)(xmlSAXHandlerPtr sax, void *user_data, const char *chunk, int size, const char *filename);
    int (*use_options)(xmlParserCtxtPtr context, int options);
    int (*parse_chunk)(xmlParserCtxtPtr context, const char *chunk, int size, int terminate);
    void (*free_parser)(xmlParserCtxtPtr context);
    void (*stop_parser)(xmlParserCtxtPtr context);
    const xmlChar *(*dict_lookup)(xmlDictPtr dict, const xmlChar *name, int length);
} clibxml2_api;

/// Loads libxml2 (its ABI 2, as Debian's libxml2 ships it) into `api`: NULL, or the loader's
/// words for what failed.
static inline const char *clibxml2_load(clibxml2_api *api) {
    void *library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return dlerror();
#define CLIBXML2_SYMBOL(field, name) \
    if ((*(void **)(&api->field) = dlsym(library, name)) == NULL) return dlerror();
    CLIBXML2_SYMBOL(init_parser, "xmlInitParser")
    CLIBXML2_SYMBOL(create_push_parser, "xmlCreatePushParserCtxt")
    CLIBXML2_SYMBOL(use_options, "xmlCtxtUseOptions")
    CLIBXML2_SYMBOL(parse_chunk, "xmlParseChunk")
    CLIBXML2_SYMBOL(free_parser, "xmlFreeParserCtxt")
    CLIBXML2_SYMBOL(stop_parser, "xmlStopParser")
    CLIBXML2_SYMBOL(dict_lookup, "xmlDictLookup")
#undef CLIBXML2_SYMBOL
    return NULL;
}

// Calls through the loaded pointers (never NULL once clibxml2_load has succeeded).
static inline void clibxml2_init_parser(const clibxml2_api *api) { api->init_parser(); }
static inline xmlParserCtxtPtr clibxml2_create_push_parser(const clibxml2_api *api, xmlSAXHandlerPtr sax, void *user_data,
                                                           const char *chunk, int size, const char *filename) {
    return api->create_push_parser(sax, user_data, chunk, size, filename);
}
static inline int clibxml2_use_options(const clibxml2_api *api, xmlParserCtxtPtr context, int options) {
    return api->use_options(context, options);
}
static inline int clibxml2_parse_chunk(const clibxml2_api *api, xmlParserCtxtPtr context, const char *chunk, int size, int terminate) {
    return api->parse_chunk(context, chunk, size, terminate);
}
static inline void clibxml2_free_parser(const clibxml2_api *api, xmlParserCtxtPtr context) { api->free_parser(context); }
static inline void clibxml2_stop_parser(const clibxml2_api *api, xmlParserCtxtPtr context) { api->stop_parser(context); }
static inline const xmlChar *clibxml2_dict_lookup(const clibxml2_api *api, xmlDictPtr dict, const xmlChar *name, int length) {
    return api->dict_lookup(dict, name, length);
}
#endif
