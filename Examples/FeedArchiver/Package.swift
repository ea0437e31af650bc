// swift-tools-version:6.1
import PackageDescription

// Keeps an archive of feeds in a SQLite file from a cron job: each run asks each
// feed with the validators the archive stored, a 304 keeps everything as it was,
// and the exit status tells cron whether to worry (0), wait (75) or look (1).
let package = Package(
    name: "FeedArchiver",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "ingest", path: "../..", traits: ["Fetch", "SQLite"]),
        .package(path: "../ExampleTestServer")
    ],
    targets: [
        // One archive update: conditional GET in, rows or a 304 recorded out.
        .target(
            name: "Archiver",
            dependencies: [
                .product(name: "IngestFeedFetch", package: "ingest"),
                .product(name: "IngestFeedArchive", package: "ingest"),
                .product(name: "IngestFeeds", package: "ingest"),
                .product(name: "IngestSQLite", package: "ingest")
            ]),
        // FeedArchiver DATABASE URL…, for crontab.
        .executableTarget(name: "FeedArchiver", dependencies: ["Archiver"]),
        // Against Samples/podcast.rss served on 127.0.0.1 by the test itself.
        .testTarget(
            name: "ArchiverTests",
            dependencies: [
                "Archiver", .product(name: "IngestFeedArchive", package: "ingest"),
                .product(name: "TinyHTTPServer", package: "ExampleTestServer")
            ])
    ]
)
