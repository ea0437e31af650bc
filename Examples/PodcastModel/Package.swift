// swift-tools-version:6.1
import PackageDescription

// A podcast app's model: a feed (a file or a URL) read into the app's own show and
// episode structs, with the iTunes and Podcasting 2.0 fields typed.
let package = Package(
    name: "PodcastModel",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "ingest", path: "../..", traits: ["Fetch"]),
        .package(path: "../ExampleTestServer")
    ],
    targets: [
        // Show, Episode and the reading of them from a feed.
        .target(
            name: "Podcast",
            dependencies: [
                .product(name: "IngestFeeds", package: "ingest"),
                .product(name: "IngestFeedFetch", package: "ingest")
            ]),
        // Prints a show and its episodes: PodcastModel FILE-OR-URL.
        .executableTarget(name: "PodcastModel", dependencies: ["Podcast"]),
        // Against Samples/podcast.rss, read as a file and served on 127.0.0.1.
        .testTarget(
            name: "PodcastTests",
            dependencies: [
                "Podcast",
                .product(name: "TinyHTTPServer", package: "ExampleTestServer")
            ])
    ]
)
