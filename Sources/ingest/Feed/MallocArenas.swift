#if canImport(Glibc)
import Glibc
#endif

/// glibc's limit on malloc arenas, for `ingest feed`.
///
/// glibc gives a thread that allocates while another holds the arena an arena of
/// its own, up to eight per core, and keeps what is freed in an arena there for
/// that arena's next allocations. A feed run reads each fetched feed on a thread of
/// its own, `--jobs` at a time, so a run of thousands of feeds ends up holding a
/// dozen arenas each as large as the biggest feeds read in it: resident memory that
/// the run no longer uses. One arena per core keeps that memory to what is in use
/// without making threads wait for each other in `malloc` more than cores can.
///
/// Elsewhere (macOS, musl) this does nothing.
enum MallocArenas {
    /// Sets glibc's `M_ARENA_MAX` to `count` (at least 1), unless the environment
    /// sets `MALLOC_ARENA_MAX`. Call it before the threads start: arenas already
    /// made are kept.
    static func limit(to count: Int) {
        #if canImport(Glibc)
        guard getenv("MALLOC_ARENA_MAX") == nil else { return }
        // `mallopt` is declared in <malloc.h>, which Swift's Glibc module does not
        // include: found at run time instead (RTLD_DEFAULT, the null handle).
        guard let symbol = dlsym(nil, "mallopt") else { return }
        // Safety (`unsafeBitCast`): `symbol` is glibc's `int mallopt(int param, int value)`,
        // whose C signature this function type states exactly.
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        let arenaMax: Int32 = -8  // M_ARENA_MAX
        _ = mallopt(arenaMax, Int32(clamping: max(1, count)))
        #endif
    }
}
