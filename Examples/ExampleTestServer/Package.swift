// swift-tools-version:6.1
import PackageDescription

// The tiny HTTP server the feed examples' tests serve Samples/ with, on 127.0.0.1:
// one copy for the three of them, and no server library in their graphs.
let package = Package(
    name: "ExampleTestServer",
    platforms: [.macOS(.v13)],
    products: [.library(name: "TinyHTTPServer", targets: ["TinyHTTPServer"])],
    targets: [.target(name: "TinyHTTPServer")]
)
