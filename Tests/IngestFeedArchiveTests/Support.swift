import Foundation
import GRDB
import IngestCore
import IngestFeedArchive
import IngestFeeds
import IngestSQLite
import IngestTestSupport

/// An archive in a SQLite file of a temporary directory.
final class ArchiveFixture {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("feeds.db")
    }

    /// A new archive over the file, as a new run of a program makes one.
    func archive() throws -> FeedArchive {
        try FeedArchive { design in SQLiteOutput(path: self.path, mode: .append, design: design) }
    }

    /// Archives `text` (a whole feed) under `source`.
    @discardableResult
    func archive(
        _ text: String, source: String = "https://example.org/feed.xml", fetch: FeedFetch? = nil,
        into archive: FeedArchive? = nil
    ) throws -> FeedArchiveCounts {
        let archive = try archive ?? self.archive()
        return try archive.archive(.given(source), fetch: fetch ?? FeedFetch(url: source, status: 200)) { deliver in
            try FeedReader().read(data: Data(text.utf8), deliver)
        }
    }

    /// Every row of `sql`, values as text.
    func rows(_ sql: String) throws -> [[String?]] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        return try queue.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                row.databaseValues.map { value in
                    switch value.storage {
                    case .null: nil
                    case .int64(let number): String(number)
                    case .double(let number): String(number)
                    case .string(let text): text
                    case .blob(let data): String(decoding: data, as: UTF8.self)
                    }
                }
            }
        }
    }

    /// One value.
    func value(_ sql: String) throws -> String? {
        try rows(sql).first?.first ?? nil
    }

    /// Every table, every row, in key order: what a re-run must leave as it was.
    func dump(ignoring columns: Set<String> = []) throws -> [String: [[String?]]] {
        var tables: [String: [[String?]]] = [:]
        for table in FeedArchive.design.tables {
            let names = ((table.foreignKey.map { [$0.column] } ?? []) + table.columns.map(\.name))
                .filter { !columns.contains($0) }
            tables[table.name] = try rows(
                "SELECT \(names.joined(separator: ", ")) FROM \(table.name) ORDER BY \(table.primaryKey.joined(separator: ", "))"
            )
        }
        return tables
    }
}

/// An RSS feed of the given items: `(guid, title, description)`; a `nil` guid
/// leaves the element out.
func rss(_ items: [(guid: String?, title: String, description: String)], link: Bool = true) -> String {
    var text = #"<rss version="2.0"><channel><title>Test feed</title><link>https://example.org/</link>"#
    for (index, item) in items.enumerated() {
        text += "<item><title>\(item.title)</title>"
        if link { text += "<link>https://example.org/\(index)</link>" }
        if let guid = item.guid { text += "<guid>\(guid)</guid>" }
        text += "<description>\(item.description)</description><pubDate>Mon, 02 Nov 2026 10:00:00 GMT</pubDate></item>"
    }
    return text + "</channel></rss>"
}
