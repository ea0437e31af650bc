// swift-tools-version:6.0
import PackageDescription

// A program that only parses: it depends on ingest's IngestCore product alone, so
// neither GRDB nor SQLite is built or linked for it (.ci/run checks the build graph).
let package = Package(
    name: "FolksReader",
    dependencies: [
        // `name:` pins the package's name, which a path dependency would otherwise
        // take from the checkout's directory name.
        .package(name: "ingest", path: "../.."),
    ],
    targets: [
        // The seed's delegate classes, remade as IngestCore element handlers.
        .target(name: "Folks", dependencies: [.product(name: "IngestCore", package: "ingest")]),
        // Prints the people of Samples/folks.xml (or of the file given), read both ways.
        .executableTarget(name: "FolksReader", dependencies: ["Folks", .product(name: "IngestCore", package: "ingest")]),
        .testTarget(name: "FolksTests", dependencies: ["Folks", .product(name: "IngestCore", package: "ingest")]),
    ]
)
