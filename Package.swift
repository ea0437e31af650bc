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

// MARK: - IngestCompression
// Compressed inputs (.gz, .bz2, .xz, .zst, recognised by their magic bytes) read through
// the decompressors' own C libraries, as the system installs them: no Swift package
// dependency. Kept in one block so the module cut can move it whole.
package.products.append(.library(name: "IngestCompression", targets: ["IngestCompression"]))
package.targets.append(contentsOf: [
    .systemLibrary(
        name: "CZlib",
        pkgConfig: "zlib",
        providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
    ),
    // Debian's libbz2-dev has no pkg-config file: the module map links libbz2 by name.
    .systemLibrary(
        name: "CBZip2",
        providers: [.apt(["libbz2-dev"]), .brew(["bzip2"])]
    ),
    .systemLibrary(
        name: "CLZMA",
        pkgConfig: "liblzma",
        providers: [.apt(["liblzma-dev"]), .brew(["xz"])]
    ),
    .systemLibrary(
        name: "CZstd",
        pkgConfig: "libzstd",
        providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
    ),
    .target(
        name: "IngestCompression",
        dependencies: ["IngestKit", "CZlib", "CBZip2", "CLZMA", "CZstd"]
    ),
    // How fast a compressed input reads through DecompressingSource, against `gzip -dc`.
    .executableTarget(
        name: "ingest-decompress-bench",
        dependencies: ["IngestKit", "IngestCompression"],
        path: "Benchmarks/Decompress"
    ),
    .testTarget(
        name: "IngestCompressionTests",
        dependencies: ["IngestCompression", "IngestKit", "CZlib"]
    ),
])
