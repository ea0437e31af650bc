// IngestKit is the umbrella: one import for everything ingest's library offers.
// Programs that need less pick the modules themselves, e.g. `IngestCore` and
// `IngestParsers` to parse documents with their own handlers, without SQLite in their build.
@_exported import IngestCore
@_exported import IngestParsers
@_exported import IngestPOSIX
@_exported import IngestTree
@_exported import IngestSQLite
@_exported import IngestFiles
@_exported import IngestSchema
@_exported import IngestCompression
@_exported import IngestFeeds
@_exported import IngestFeedArchive
