// swift-tools-version:6.1
import PackageDescription

// A news reader: feed URLs in, the five newest items of each out, as plain text.
// It takes ingest's fetching and feed modules with the Fetch trait alone: no
// database client is in its package graph.
let package = Package(
    name: "NewsReader",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "ingest", path: "../..", traits: ["Fetch"]),
        .package(path: "../ExampleTestServer")
    ],
    targets: [
        // The newest items of a feed, as headlines with plain-text summaries.
        .target(
            name: "News",
            dependencies: [
                .product(name: "IngestFeedFetch", package: "ingest"),
                .product(name: "IngestFeeds", package: "ingest")
            ]),
        // Prints the headlines of each feed URL given.
        .executableTarget(
            name: "NewsReader", dependencies: ["News", .product(name: "IngestFeedFetch", package: "ingest")]),
        // Against Samples/ served on 127.0.0.1 by the test itself.
        .testTarget(
            name: "NewsTests",
            dependencies: [
                "News", .product(name: "IngestFeedFetch", package: "ingest"),
                .product(name: "TinyHTTPServer", package: "ExampleTestServer")
            ])
    ]
)
