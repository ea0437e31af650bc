// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ingest",
    products: [
        .library(name: "IngestKit", targets: ["IngestKit"]),
        .executable(name: "ingest", targets: ["ingest"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
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
        .target(
            name: "IngestKit",
            dependencies: [
                "CExpat",
                "CLibXML2",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "ingest",
            dependencies: [
                "IngestKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Benchmarks/run.sh's measure of IngestKit.records (streaming Decodable).
        .executableTarget(
            name: "ingest-decode-bench",
            dependencies: ["IngestKit"],
            path: "Benchmarks/DecodeRecords"
        ),
        .testTarget(
            name: "IngestKitTests",
            dependencies: [
                "IngestKit",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "IngestCLITests",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)

// MARK: - IngestPostgres: the PostgreSQL output (issue 17), one block to merge as a whole.
// PostgresNIO is the client (no hand-written wire protocol); only IngestPostgres imports it.
package.dependencies += [
    .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
]
package.products += [
    .library(name: "IngestPostgres", targets: ["IngestPostgres"]),
]
package.targets += [
    .target(
        name: "IngestPostgres",
        dependencies: [
            "IngestKit",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]
    ),
    // Benchmarks/postgres.sh's measures: COPY formats, the importer into PostgreSQL, the bridge.
    .executableTarget(
        name: "ingest-postgres-bench",
        dependencies: [
            "IngestKit",
            "IngestPostgres",
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ],
        path: "Benchmarks/PostgresCopy"
    ),
    .testTarget(
        name: "IngestPostgresTests",
        dependencies: [
            "IngestPostgres",
            "IngestKit",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            // The naming parity test reads what the SQLite output wrote.
            .product(name: "GRDB", package: "GRDB.swift"),
        ]
    ),
]
