#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>

// libcurl is loaded with dlopen when a URL is first fetched, not linked: linked, its
// dependencies (TLS, Kerberos, LDAP, SSH, IDN, ...) are some twenty libraries the dynamic
// loader maps and relocates at every start of ecbrates, 6 ms of a 2 ms query (scripts/bench).
typedef struct ccurl_api {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_perform)(CURL *handle);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    void (*easy_cleanup)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
} ccurl_api;

/// Loads libcurl (its ABI 4, as Debian's libcurl4 ships it) into `api`: NULL, or the loader's
/// words for what failed.
static inline const char *ccurl_load(ccurl_api *api) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return dlerror();
#define CCURL_SYMBOL(field, name) \
    if ((*(void **)(&api->field) = dlsym(library, name)) == NULL) return dlerror();
    CCURL_SYMBOL(global_init, "curl_global_init")
    CCURL_SYMBOL(easy_init, "curl_easy_init")
    CCURL_SYMBOL(easy_setopt, "curl_easy_setopt")
    CCURL_SYMBOL(easy_perform, "curl_easy_perform")
    CCURL_SYMBOL(easy_getinfo, "curl_easy_getinfo")
    CCURL_SYMBOL(easy_cleanup, "curl_easy_cleanup")
    CCURL_SYMBOL(easy_strerror, "curl_easy_strerror")
    CCURL_SYMBOL(slist_append, "curl_slist_append")
    CCURL_SYMBOL(slist_free_all, "curl_slist_free_all")
#undef CCURL_SYMBOL
    return NULL;
}

// Calls through the loaded pointers (never NULL once ccurl_load has succeeded).
static inline CURLcode ccurl_global_init(const ccurl_api *api, long flags) { return api->global_init(flags); }
static inline CURL *ccurl_easy_init(const ccurl_api *api) { return api->easy_init(); }
static inline CURLcode ccurl_easy_perform(const ccurl_api *api, CURL *handle) { return api->easy_perform(handle); }
static inline void ccurl_easy_cleanup(const ccurl_api *api, CURL *handle) { api->easy_cleanup(handle); }
static inline const char *ccurl_easy_strerror(const ccurl_api *api, CURLcode code) { return api->easy_strerror(code); }
static inline struct curl_slist *ccurl_slist_append(const ccurl_api *api, struct curl_slist *list, const char *text) {
    return api->slist_append(list, text);
}
static inline void ccurl_slist_free_all(const ccurl_api *api, struct curl_slist *list) { api->slist_free_all(list); }

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// wrapper per kind of argument, calling through the loaded pointers with C's conventions.
static inline CURLcode ccurl_setopt_long(const ccurl_api *api, CURL *handle, CURLoption option, long value) {
    return api->easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_offset(const ccurl_api *api, CURL *handle, CURLoption option, curl_off_t value) {
    return api->easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_string(const ccurl_api *api, CURL *handle, CURLoption option, const char *value) {
    return api->easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_pointer(const ccurl_api *api, CURL *handle, CURLoption option, void *value) {
    return api->easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_list(const ccurl_api *api, CURL *handle, CURLoption option, struct curl_slist *value) {
    return api->easy_setopt(handle, option, value);
}
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode ccurl_setopt_data_callback(const ccurl_api *api, CURL *handle, CURLoption option, ccurl_data_callback value) {
    return api->easy_setopt(handle, option, value);
}
typedef int (*ccurl_progress_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                       curl_off_t upload_total, curl_off_t upload_now);
static inline CURLcode ccurl_setopt_progress_callback(const ccurl_api *api, CURL *handle, ccurl_progress_callback value) {
    return api->easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}
static inline CURLcode ccurl_getinfo_long(const ccurl_api *api, CURL *handle, CURLINFO info, long *value) {
    return api->easy_getinfo(handle, info, value);
}
static inline CURLcode ccurl_getinfo_double(const ccurl_api *api, CURL *handle, CURLINFO info, double *value) {
    return api->easy_getinfo(handle, info, value);
}
#endif
