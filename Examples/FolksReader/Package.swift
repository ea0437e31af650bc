// swift-tools-version:6.1
import PackageDescription

// A program that only parses: it depends on ingest's IngestCore and IngestParsers
// products alone (the abstractions, and the parsers with the files they read), so
// neither GRDB nor SQLite is built or linked for it, and with ingest's traits off
// (`traits: []`: the SQLite and PostgreSQL outputs) GRDB.swift and postgres-nio are not
// even in its package graph (.ci/run checks `swift package show-dependencies`).
let package = Package(
    name: "FolksReader",
    dependencies: [
        // `name:` pins the package's name, which a path dependency would otherwise
        // take from the checkout's directory name.
        .package(name: "ingest", path: "../..", traits: [])
    ],
    targets: [
        // Neuburg's delegate classes, remade as IngestCore element handlers.
        .target(
            name: "Folks",
            dependencies: [
                .product(name: "IngestCore", package: "ingest"),
                .product(name: "IngestParsers", package: "ingest")
            ]),
        // Prints the people of Samples/folks.xml (or of the file given), read both ways.
        .executableTarget(
            name: "FolksReader",
            dependencies: [
                "Folks", .product(name: "IngestCore", package: "ingest"),
                .product(name: "IngestParsers", package: "ingest")
            ]),
        .testTarget(
            name: "FolksTests",
            dependencies: [
                "Folks", .product(name: "IngestCore", package: "ingest"),
                .product(name: "IngestParsers", package: "ingest")
            ])
    ]
)
