#include "CZstd.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static CZstdLibrary library;
static const CZstdLibrary *loaded;
static char loadError[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *open_library(void) {
    const char *named = getenv("INGEST_LIBZSTD");
    if (named && *named) return dlopen(named, RTLD_NOW | RTLD_LOCAL);
#if defined(__APPLE__)
    static const char *const candidates[] = {
        "libzstd.1.dylib", "/opt/homebrew/lib/libzstd.1.dylib", "/usr/local/lib/libzstd.1.dylib",
        "/opt/local/lib/libzstd.1.dylib", NULL};
#else
    static const char *const candidates[] = {"libzstd.so.1", NULL};
#endif
    void *handle = NULL;
    for (const char *const *name = candidates; *name && !handle; name++) {
        handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
    }
    return handle;
}

static void load(void) {
    void *handle = open_library();
    if (!handle) {
        const char *why = dlerror();
        snprintf(loadError, sizeof loadError, "%s", why ? why : "libzstd.so.1: cannot be loaded");
        return;
    }
    struct { const char *symbol; void **slot; } symbols[] = {
        {"ZSTD_createDCtx", (void **)&library.createDCtx},
        {"ZSTD_freeDCtx", (void **)&library.freeDCtx},
        {"ZSTD_DCtx_setParameter", (void **)&library.setParameter},
        {"ZSTD_decompressStream", (void **)&library.decompressStream},
        {"ZSTD_isError", (void **)&library.isError},
        {"ZSTD_getErrorCode", (void **)&library.getErrorCode},
        {"ZSTD_getErrorName", (void **)&library.getErrorName},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        *symbols[i].slot = dlsym(handle, symbols[i].symbol);
        if (!*symbols[i].slot) {
            snprintf(loadError, sizeof loadError, "libzstd has no %s (version 1.4 or later is needed)",
                     symbols[i].symbol);
            dlclose(handle);
            return;
        }
    }
    loaded = &library;
}

const CZstdLibrary *czstd_library(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *czstd_load_error(void) {
    pthread_once(&once, load);
    return loaded ? NULL : loadError;
}
