import Foundation

extension Feed {
    /// Reads the whole feed in the file at `url`, items included.
    ///
    /// `url` must be a file URL: the library reads, it does not fetch. For a large
    /// feed, ``FeedReader`` hands items over one at a time instead.
    public init(contentsOf url: URL, options: FeedReader.Options = FeedReader.Options()) throws {
        var items: [FeedItem] = []
        self = try FeedReader(options: options).read(contentsOf: url) { item, _ in items.append(item) }
        self.items = items
    }

    /// Reads the whole feed held in `data`, items included.
    public init(data: Data, options: FeedReader.Options = FeedReader.Options()) throws {
        var items: [FeedItem] = []
        self = try FeedReader(options: options).read(data: data) { item, _ in items.append(item) }
        self.items = items
    }
}
