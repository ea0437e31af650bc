// swift-tools-version:6.1
import PackageDescription

// The library is cut in layers a program picks from (see Documentation/Library.md,
// "Architecture"), the way SwiftNIO cuts NIOCore from NIOPosix: IngestCore holds the
// abstractions (events, the handler stack, records and the mapping, the Output
// protocol) and depends on nothing; IngestParsers reads inputs with Expat, libxml2 and
// the JSON reader and runs the import; IngestPOSIX is the file plumbing the outputs
// share (atomic files, output locks). Each output, the tree mode and the mapping
// schemas are modules of their own on top of them; IngestKit re-exports them all but
// IngestPostgres (so a program that takes IngestKit does not build SwiftNIO); `ingest`
// is the command, a thin client of the library.
//
// The two database outputs' client libraries and the command's own dependencies are
// behind traits, all on by default, so a program that only parses can leave them out of
// its package graph altogether:
//     .package(url: "…/ingest", from: "…", traits: [])
// and `swift package show-dependencies` lists no package but this one
// (Examples/FolksReader does this; .ci/run checks it).

// Where the command carries the Swift runtime inside it (see the `ingest` target).
let staticRuntime = BuildSettingCondition.when(platforms: [.linux], configuration: .release)

let package = Package(
    name: "ingest",
    // Linux is built and tested; macOS is written for but not tested here; iOS and the
    // other Apple platforms lack Expat in their SDKs (Documentation/SettingUp.md, "Platforms").
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "IngestKit", targets: ["IngestKit"]),
        .library(name: "IngestCore", targets: ["IngestCore"]),
        .library(name: "IngestParsers", targets: ["IngestParsers"]),
        .library(name: "IngestPOSIX", targets: ["IngestPOSIX"]),
        .library(name: "IngestTree", targets: ["IngestTree"]),
        .library(name: "IngestSQLite", targets: ["IngestSQLite"]),
        .library(name: "IngestPostgres", targets: ["IngestPostgres"]),
        .library(name: "IngestFiles", targets: ["IngestFiles"]),
        .library(name: "IngestSchema", targets: ["IngestSchema"]),
        .library(name: "IngestCompression", targets: ["IngestCompression"]),
        .library(name: "IngestTesting", targets: ["IngestTesting"]),
        .library(name: "IngestFeeds", targets: ["IngestFeeds"]),
        .library(name: "IngestFeedArchive", targets: ["IngestFeedArchive"]),
        .library(name: "IngestFeedFetch", targets: ["IngestFeedFetch"]),
        .executable(name: "ingest", targets: ["ingest"])
    ],
    traits: [
        .trait(name: "SQLite", description: "The SQLite output (IngestSQLite, through GRDB.swift)."),
        .trait(name: "PostgreSQL", description: "The PostgreSQL output (IngestPostgres, through PostgresNIO)."),
        // IngestFeedFetch answers in the archive's FeedFetch record: fetching needs it.
        .trait(
            name: "Fetch", description: "Fetching feeds over HTTP (IngestFeedFetch, through AsyncHTTPClient).",
            enabledTraits: ["FeedArchive"]),
        .trait(name: "FeedArchive", description: "The feed archive (IngestFeedArchive, keyed through swift-crypto)."),
        .trait(
            name: "Command",
            description: "The ingest command's own dependencies: argument parsing, the feed fetcher and archive.",
            enabledTraits: ["Fetch", "FeedArchive"]
        ),
        .default(enabledTraits: ["SQLite", "PostgreSQL", "Fetch", "FeedArchive", "Command"])
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // IngestFeedFetch's HTTP client; SwiftNIO (which it is built on) also serves the
        // feed tests' loopback HTTP server.
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // SHA-256 for the feed archive's keys and content hashes (BoringSSL's, with the
        // CPU's SHA instructions); PostgresNIO builds it too.
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2")
    ],
    targets: [
        // C libraries, found through pkg-config; the providers name the packages to install.
        .systemLibrary(
            name: "CExpat",
            pkgConfig: "expat",
            providers: [.apt(["libexpat1-dev"]), .brew(["expat"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // The decompressors' own libraries, as the system installs them. Debian's
        // libbz2-dev has no pkg-config file: the module map links libbz2 by name.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(name: "CBZip2", providers: [.apt(["libbz2-dev"]), .brew(["bzip2"])]),
        .systemLibrary(name: "CLZMA", pkgConfig: "liblzma", providers: [.apt(["liblzma-dev"]), .brew(["xz"])]),
        // libzstd is loaded at run time (dlopen), not linked: its few prototypes are
        // declared in CZstd itself, so the build needs no libzstd-dev (Documentation/SettingUp.md, "Prerequisites").
        .target(name: "CZstd", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),

        // The abstractions, on nothing (no C library, no POSIX): events, names, the
        // handler stack, the parser protocols and the JSON reader (pure Swift; the
        // mapping reads nested JSON back with it), records, the automatic mapping, the
        // Codable bridges, the Output and RecordSink protocols, IngestError.
        .target(name: "IngestCore"),
        // The file plumbing the outputs and the import share: atomic files, output
        // locks, temporary files, the large-stack thread, POSIX calls.
        .target(name: "IngestPOSIX", dependencies: ["IngestCore"]),
        // The inputs and what reads them: the Expat and libxml2 SAX parsers, InputFile
        // and standard input, and the import loop (Importer, RecordReader, streaming
        // Decodable) that drives any parser into any Output.
        .target(name: "IngestParsers", dependencies: ["IngestCore", "IngestPOSIX", "CExpat", "CLibXML2"]),
        // libxml2's tree: XPath selection and XML Schema / RELAX NG validation.
        .target(name: "IngestTree", dependencies: ["IngestCore", "IngestParsers", "CLibXML2"]),
        // What the two SQL outputs share (the upsert clause); no public API, no product.
        .target(name: "IngestSQL"),
        // The SQLite output: the only module that imports GRDB.
        .target(
            name: "IngestSQLite",
            dependencies: [
                "IngestCore", "IngestPOSIX", "IngestSQL",
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["SQLite"])),
                .product(name: "GRDBSQLite", package: "GRDB.swift", condition: .when(traits: ["SQLite"]))
            ]
        ),
        // The PostgreSQL output: the only module that imports PostgresNIO (and so SwiftNIO).
        .target(
            name: "IngestPostgres",
            dependencies: [
                "IngestCore", "IngestPOSIX", "IngestSQL",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["PostgreSQL"]))
            ]
        ),
        // Property lists (XML, binary), keyed archives, JSON and NDJSON outputs.
        .target(name: "IngestFiles", dependencies: ["IngestCore", "IngestPOSIX"]),
        // Mapping schemas: declared records, typed fields, keys, child tables, inference.
        .target(name: "IngestSchema", dependencies: ["IngestCore", "IngestParsers", "IngestPOSIX"]),
        // Compressed inputs (gzip, bzip2, xz, zstd, told by their magic bytes), streamed.
        .target(
            name: "IngestCompression",
            dependencies: ["IngestCore", "IngestParsers", "CZlib", "CBZip2", "CLZMA", "CZstd"]),
        // RSS, Atom and JSON Feed into one model (gofeed's), streamed through the handler
        // stack. On the parsers alone: a feed reader app needs no SQLite. libxml2's
        // HTML parser reads the markup SafeHTML sanitizes.
        .target(name: "IngestFeeds", dependencies: ["IngestCore", "IngestParsers", "CLibXML2"]),
        // Feeds archived into any database output that renders a TableDesign: re-runs
        // update in place, never duplicate. Names no database (no GRDB).
        .target(
            name: "IngestFeedArchive",
            dependencies: [
                "IngestCore", "IngestPOSIX", "IngestParsers", "IngestFeeds",
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["FeedArchive"]))
            ]),
        // Feeds fetched over HTTP: conditional GET, redirects told apart, gzip, the
        // charset rules, timeouts, a byte limit, a limit per host. The only library
        // module on AsyncHTTPClient (and so SwiftNIO), behind the Fetch trait.
        .target(
            name: "IngestFeedFetch",
            dependencies: [
                "IngestCore", "IngestParsers", "IngestPOSIX", "IngestFeeds", "IngestCompression", "IngestFeedArchive",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Fetch"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Fetch"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Fetch"]))
            ]
        ),
        // Drives element handlers with hand-made events, for tests (yours too).
        .target(name: "IngestTesting", dependencies: ["IngestCore"]),
        // The umbrella: re-exports the modules above, but for IngestPostgres, which a
        // program imports by name (its SwiftNIO and TLS stack is a long build nobody else needs).
        .target(
            name: "IngestKit",
            dependencies: [
                "IngestCore", "IngestParsers", "IngestPOSIX", "IngestTree", "IngestSQLite", "IngestFiles",
                "IngestSchema", "IngestCompression",
                "IngestFeeds", "IngestFeedArchive"
            ]
        ),

        // The command. A Linux release build links the Swift runtime and Foundation into it,
        // so it runs without a toolchain and its loader maps less. `-static-stdlib` goes to
        // this module's compile too, so that its imports of Foundation carry the static
        // libraries' own link lists; every other module is compiled as for a shared runtime,
        // and Scripts/build-release.sh only relinks. (These flags are this target's alone: a
        // package that depends on ingest's libraries does not see them.)
        .executableTarget(
            name: "ingest",
            dependencies: [
                "IngestKit",
                "IngestPostgres",
                "IngestFeedFetch",
                .product(
                    name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Command"]))
            ],
            swiftSettings: [.unsafeFlags(["-static-stdlib"], staticRuntime)],
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-use-ld=lld"], staticRuntime)]
        ),
        // How fast a compressed input reads through DecompressingSource, against `gzip -dc`.
        .executableTarget(
            name: "ingest-decompress-bench",
            dependencies: ["IngestCore", "IngestParsers", "IngestCompression"],
            path: "Benchmarks/Decompress"
        ),
        // Benchmarks/Feeds/run.sh's reader: a large feed through IngestFeeds' streaming API.
        .executableTarget(
            name: "ingest-feed-bench",
            dependencies: ["IngestFeeds"],
            path: "Benchmarks/FeedStream"
        ),
        // Benchmarks/run.sh's measure of IngestKit.records (streaming Decodable).
        .executableTarget(
            name: "ingest-decode-bench",
            dependencies: ["IngestCore", "IngestParsers"],
            path: "Benchmarks/DecodeRecords"
        ),

        // Benchmarks/postgres.sh's measures beside the import: text vs binary COPY, the bridge.
        .executableTarget(
            name: "ingest-postgres-bench",
            dependencies: ["IngestCore", "IngestPostgres", .product(name: "PostgresNIO", package: "postgres-nio")],
            path: "Benchmarks/PostgresCopy"
        ),

        // Helpers every test target shares: the package root, a temporary directory, an
        // event log, the automatic mapping of a string.
        .target(
            name: "IngestTestSupport", dependencies: ["IngestCore", "IngestParsers", "IngestTesting"],
            path: "Tests/Support"),
        // A real PostgreSQL server for the tests (initdb, pg_ctl, a Unix socket), started
        // on first use; the PostgreSQL output's tests and the command's share it.
        .target(name: "PostgresTestServer", path: "Tests/PostgresServer"),
        .testTarget(
            name: "IngestCoreTests",
            dependencies: ["IngestCore", "IngestParsers", "IngestPOSIX", "IngestTesting", "IngestTestSupport"]),
        .testTarget(
            name: "IngestTreeTests", dependencies: ["IngestTree", "IngestParsers", "IngestTesting", "IngestTestSupport"]
        ),
        .testTarget(
            name: "IngestSQLiteTests",
            dependencies: [
                "IngestSQLite", "IngestParsers", "IngestTestSupport", .product(name: "GRDB", package: "GRDB.swift")
            ]
        ),
        .testTarget(
            name: "IngestPostgresTests",
            dependencies: [
                "IngestPostgres", "IngestCore", "IngestParsers", "PostgresTestServer", "IngestTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                // The parity test reads what the SQLite output wrote.
                "IngestSQLite", .product(name: "GRDB", package: "GRDB.swift"),
                // The catalog's feed archive example.
                "IngestFeedArchive", "IngestFeeds"
            ]
        ),
        .testTarget(
            name: "IngestCompressionTests",
            dependencies: ["IngestCompression", "IngestCore", "IngestParsers", "CZlib", "IngestTestSupport"]),
        // libxml2: the sanitizer's tests parse its output again as a browser would.
        .testTarget(
            name: "IngestFeedsTests",
            dependencies: ["IngestFeeds", "IngestCore", "IngestParsers", "IngestTestSupport", "CLibXML2"]),
        .testTarget(
            name: "IngestFeedArchiveTests",
            dependencies: [
                "IngestFeedArchive", "IngestFeeds", "IngestSQLite", "IngestTestSupport",
                .product(name: "GRDB", package: "GRDB.swift")
            ]
        ),
        // A real HTTP/1.1 server on 127.0.0.1 for the feed fetching tests, on SwiftNIO.
        .target(
            name: "LoopbackHTTPServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ],
            path: "Tests/LoopbackServer"
        ),
        .testTarget(
            name: "IngestFeedFetchTests",
            dependencies: [
                "IngestFeedFetch", "IngestFeeds", "IngestFeedArchive", "IngestSQLite", "IngestTestSupport",
                "LoopbackHTTPServer", .product(name: "NIOHTTP1", package: "swift-nio")
            ]
        ),
        .testTarget(
            name: "IngestFilesTests", dependencies: ["IngestFiles", "IngestParsers", "IngestPOSIX", "IngestTestSupport"]
        ),
        .testTarget(
            name: "IngestSchemaTests",
            dependencies: [
                "IngestSchema", "IngestParsers", "IngestSQLite", "IngestTesting", "IngestTestSupport",
                .product(name: "GRDB", package: "GRDB.swift")
            ]
        ),
        // The umbrella: what `import IngestKit` gives a program that takes everything.
        .testTarget(
            name: "IngestKitTests",
            dependencies: [
                "IngestKit", "IngestCore", "IngestTestSupport", .product(name: "GRDB", package: "GRDB.swift")
            ]
        ),
        // The command, run as a user runs it: the built binary.
        .testTarget(
            name: "IngestCLITests",
            dependencies: [
                "IngestFeeds", "IngestCore", "CZlib", "PostgresTestServer", "IngestTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                // `ingest feed`'s tests serve feeds on 127.0.0.1 with SwiftNIO.
                "LoopbackHTTPServer",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ]
        )
    ]
)
