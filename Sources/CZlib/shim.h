#include <zlib.h>

/* inflateInit2 is a macro (it passes ZLIB_VERSION and sizeof(z_stream) so the
   library can check the caller was built against a compatible header), which
   Swift cannot call; this is the same call as a function. */
static inline int ingest_zlib_inflate_init2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

