// swift-tools-version:6.0
import PackageDescription

// A libFuzzer target for ingest's parsers and outputs, in a package of its own so
// that the main package builds without libFuzzer. Build and run with ./run.sh
// (it passes -sanitize=fuzzer, which instruments every Swift module for coverage).
let package = Package(
    name: "ingest-fuzz",
    dependencies: [
        .package(name: "ingest", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "ingest-fuzz",
            dependencies: [.product(name: "IngestKit", package: "ingest")],
            path: "Sources/IngestFuzz"
        )
    ]
)
