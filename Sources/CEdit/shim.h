#ifndef CEDIT_SHIM_H
#define CEDIT_SHIM_H
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>

// libedit (BSD editline, Debian's libedit2) through its readline-compatible functions, loaded
// with dlopen when an interactive `ecbrates shell` starts: no other command pays for it, and no
// header package is needed to build (the prototypes are readline's, declared here).
typedef struct cedit_api {
    char *(*readline)(const char *prompt);
    int (*add_history)(const char *line);
    int (*read_history)(const char *file);
    int (*write_history)(const char *file);
    void (*stifle_history)(int max);
} cedit_api;

/// Loads libedit (its ABI 2) into `api`: NULL, or the loader's words for what failed.
static inline const char *cedit_load(cedit_api *api) {
    void *library = dlopen("libedit.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return dlerror();
#define CEDIT_SYMBOL(field, name) \
    if ((*(void **)(&api->field) = dlsym(library, name)) == NULL) return dlerror();
    CEDIT_SYMBOL(readline, "readline")
    CEDIT_SYMBOL(add_history, "add_history")
    CEDIT_SYMBOL(read_history, "read_history")
    CEDIT_SYMBOL(write_history, "write_history")
    CEDIT_SYMBOL(stifle_history, "stifle_history")
#undef CEDIT_SYMBOL
    return NULL;
}

/// `readline`'s line, freed (libedit allocates it with malloc).
static inline void cedit_free(char *line) { free(line); }
#endif
