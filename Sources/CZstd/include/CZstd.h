// libzstd's streaming decoder, loaded at run time (dlopen) instead of linked, so that
// building ingest needs no zstd.h (libzstd-dev) and a machine without libzstd.so.1
// still runs every other input. Only what ZstdDecoder calls is declared here, copied
// from zstd.h and zstd_errors.h, whose ABI libzstd keeps stable across versions.
#ifndef INGEST_CZSTD_H
#define INGEST_CZSTD_H

#include <stddef.h>


/// zstd.h's ZSTD_inBuffer: the compressed bytes and how far the decoder read them.
typedef struct {
    const void *_Nullable src;
    size_t size;
    size_t pos;
} CZstdInBuffer;

/// zstd.h's ZSTD_outBuffer: room for decompressed bytes and how far the decoder filled it.
typedef struct {
    void *_Nullable dst;
    size_t size;
    size_t pos;
} CZstdOutBuffer;

/// zstd.h's ZSTD_d_windowLogMax (a ZSTD_dParameter).
enum { CZSTD_D_WINDOW_LOG_MAX = 100 };
/// zstd_errors.h's ZSTD_error_frameParameter_windowTooLarge and ZSTD_error_memory_allocation.
enum { CZSTD_ERROR_WINDOW_TOO_LARGE = 16, CZSTD_ERROR_MEMORY_ALLOCATION = 64 };

/// The functions of libzstd that ingest calls, as found in the loaded library.
typedef struct {
    void *_Nullable (*_Nonnull createDCtx)(void);
    size_t (*_Nonnull freeDCtx)(void *_Nonnull context);
    size_t (*_Nonnull setParameter)(void *_Nonnull context, int parameter, int value);
    size_t (*_Nonnull decompressStream)(void *_Nonnull context, CZstdOutBuffer *_Nonnull output,
                                        CZstdInBuffer *_Nonnull input);
    unsigned (*_Nonnull isError)(size_t result);
    int (*_Nonnull getErrorCode)(size_t result);
    const char *_Nonnull (*_Nonnull getErrorName)(size_t result);
} CZstdLibrary;

/// libzstd's functions, loaded on the first call (once, safe from any thread), or NULL
/// when no library could be loaded; czstd_load_error() then says why.
///
/// The library is the one INGEST_LIBZSTD names (a path or a file name) when it is set,
/// and otherwise libzstd.so.1 (Linux) or libzstd.1.dylib (macOS, also in Homebrew's
/// and MacPorts' folders).
const CZstdLibrary *_Nullable czstd_library(void);

/// Why czstd_library() returned NULL: the loader's own words, or NULL when it did not.
const char *_Nullable czstd_load_error(void);

#endif
