import IngestCore

/// A source as the archive holds it: its key, where to fetch it and the validators
/// of its last successful fetch.
public struct StoredFeed: Sendable, Equatable {
    /// The `feeds` row's key, which its items refer to.
    public var id: Int64
    /// The source as it was first archived: a path, `-`'s feed address, a URL.
    public var source: String
    /// Where it is read from now (moved by permanent redirects).
    public var url: String?
    /// The stored `ETag`, for `If-None-Match`.
    public var etag: String?
    /// The stored `Last-Modified`, for `If-Modified-Since`.
    public var lastModified: String?
    /// The feed's title when it was last read.
    public var title: String?
    /// The whole row, by column name: rewritten as it was when only the fetch's
    /// columns change (a failed fetch).
    var row: [String: FieldValue]

    init(row: [String: FieldValue]) {
        self.row = row
        id = row["id"]?.int64 ?? 0
        source = row["source"]?.text ?? ""
        url = row["url"]?.text
        etag = row["etag"]?.text
        lastModified = row["last_modified"]?.text
        title = row["title"]?.text
    }
}
