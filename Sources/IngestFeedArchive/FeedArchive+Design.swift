import IngestCore

extension FeedArchive {
    /// The archive's tables, as a database-neutral ``/IngestCore/TableDesign`` with
    /// upserts: a row whose key is stored already is updated in place, none is ever
    /// deleted. Any output that renders a design (IngestSQLite's `SQLiteOutput`, a
    /// PostgreSQL output) stores an archive.
    ///
    /// - `feeds`, one row per source: `id` (integer key), `source` (the file, `-` or
    ///   URL as first given), `url` (where it is read from now: a permanent redirect
    ///   moves it), `title`, `link`, `feed_link`, `description`, `type` (`rss`,
    ///   `atom`, `json`), `version`, `language`, `copyright`, `generator`, `image`,
    ///   `author`, `categories` (JSON array), `updated`/`updated_at`,
    ///   `published`/`published_at`, `well_formed`, `first_error`, `extensions` (JSON:
    ///   `dcExt`, `itunesExt`, `extensions` as gofeed writes them), then the fetch:
    ///   `etag`, `last_modified`, `last_fetched`, `last_status` (the HTTP status,
    ///   304 included; NULL for files), `last_error` (NULL after a success),
    ///   `failures` (fetches failed in a row, 0 after a success), `next_fetch` (when
    ///   it may be fetched again, by ``schedule``), and what the feed says about
    ///   that: `ttl` (minutes), `skip_hours` and `skip_days` (JSON arrays: hours
    ///   0–23, days 1–7 from Monday), `update_period`, `update_frequency`; and
    ///   `subscription_categories` (JSON array of `News/Tech` paths: the folders of
    ///   the subscription list it came from, see
    ///   ``recordSubscriptions(_:)``).
    ///
    /// An archive made before a column was added gets it on its next run (`ALTER
    /// TABLE … ADD COLUMN`), NULL in the rows stored before.
    /// - `items`, child of `feeds` by `feed_id`: `id` (integer key), `guid`, `link`,
    ///   `title`, `summary`, `content`, `author`, `published`/`published_at`,
    ///   `updated`/`updated_at`, `image`, `extensions` (JSON: `dcExt`, `itunesExt`,
    ///   `extensions`, `custom`), `content_hash`, `first_seen`, `last_changed`.
    ///   And what a podcast app queries, typed: `duration_seconds` (every
    ///   `itunes:duration` form), `episode` and `season` (iTunes', else the
    ///   Podcasting 2.0 tag's whole number), `episode_type` (`full`, `trailer`,
    ///   `bonus`), `explicit` (a Boolean).
    /// - `chapters` (`item_id`, `start_seconds`, `start` as written, `title`, `href`,
    ///   `image`: Podlove Simple Chapters), keyed by item and start; `transcripts`
    ///   (`url`, `type`, `language`, `rel`), `funding` (`url`, `text`) and
    ///   `alternate_enclosures` (`url` — the first source's —, `type`, `length`,
    ///   `bitrate`, `height`, `lang`, `title`, `rel`, `codecs`, `is_default`), keyed
    ///   by item and URL; `persons` (`name`, `role` — `''` when absent —, `role_group`,
    ///   `img`, `href`), keyed by item, name and role; `soundbites`
    ///   (`start_seconds`, `duration_seconds`, `title`), keyed by item and times.
    /// - `show_persons` and `show_funding`, children of `feeds` by `feed_id`, with the
    ///   columns of `persons` and `funding`: the people and funding a show names on
    ///   its channel.
    /// - `enclosures` (`item_id`, `url`, `type`, `length`), keyed by item and URL;
    ///   `categories` (`item_id`, `name`), keyed by both; `authors` (`item_id`,
    ///   `name`, `email`, `url`), keyed by item, name and email (`''` when absent, so
    ///   that the key has no NULL).
    ///
    /// Keys are hashes (``/IngestCore/TableDesign/Table/randomKey``): SQLite stores the rows in
    /// the order they were first written, the key a unique index beside them.
    ///
    /// Texts are kept as the feed gives them (HTML included); `…_at` columns are the
    /// dates read as instants, RFC 3339 in UTC, NULL when the text is no date.
    /// Children are added, never removed: an enclosure, category or author an item
    /// drops stays, with the rest of what the archive has seen.
    public static let design = TableDesign(
        tables: [
            TableDesign.Table(
                name: Table.feeds,
                columns: [
                    .init(name: "id", type: .integer, notNull: true),
                    .init(name: "source", type: .text, notNull: true),
                    .init(name: "url", type: .text),
                    .init(name: "title", type: .text),
                    .init(name: "link", type: .text),
                    .init(name: "feed_link", type: .text),
                    .init(name: "description", type: .text),
                    .init(name: "type", type: .text),
                    .init(name: "version", type: .text),
                    .init(name: "language", type: .text),
                    .init(name: "copyright", type: .text),
                    .init(name: "generator", type: .text),
                    .init(name: "image", type: .text),
                    .init(name: "author", type: .text),
                    .init(name: "categories", type: .json),
                    .init(name: "updated", type: .text),
                    .init(name: "updated_at", type: .datetime),
                    .init(name: "published", type: .text),
                    .init(name: "published_at", type: .datetime),
                    .init(name: "well_formed", type: .bool),
                    .init(name: "first_error", type: .text),
                    .init(name: "extensions", type: .json),
                    .init(name: "etag", type: .text),
                    .init(name: "last_modified", type: .text),
                    .init(name: "last_fetched", type: .datetime),
                    .init(name: "last_status", type: .integer),
                    .init(name: "last_error", type: .text),
                    .init(name: "failures", type: .integer),
                    .init(name: "next_fetch", type: .datetime),
                    .init(name: "ttl", type: .integer),
                    .init(name: "skip_hours", type: .json),
                    .init(name: "skip_days", type: .json),
                    .init(name: "update_period", type: .text),
                    .init(name: "update_frequency", type: .integer),
                    .init(name: "subscription_categories", type: .json)
                ],
                primaryKey: ["id"],
                childTables: [Table.items] + showTables,
                randomKey: true),
            TableDesign.Table(
                name: Table.items,
                columns: [
                    .init(name: "id", type: .integer, notNull: true),
                    .init(name: "guid", type: .text),
                    .init(name: "link", type: .text),
                    .init(name: "title", type: .text),
                    .init(name: "summary", type: .text),
                    .init(name: "content", type: .text),
                    .init(name: "author", type: .text),
                    .init(name: "published", type: .text),
                    .init(name: "published_at", type: .datetime),
                    .init(name: "updated", type: .text),
                    .init(name: "updated_at", type: .datetime),
                    .init(name: "image", type: .text),
                    .init(name: "extensions", type: .json),
                    .init(name: "content_hash", type: .integer, notNull: true),
                    .init(name: "first_seen", type: .datetime),
                    .init(name: "last_changed", type: .datetime),
                    .init(name: "duration_seconds", type: .integer),
                    .init(name: "episode", type: .integer),
                    .init(name: "season", type: .integer),
                    .init(name: "episode_type", type: .text),
                    .init(name: "explicit", type: .bool)
                ],
                primaryKey: ["id"],
                foreignKey: .init(column: "feed_id", parentTable: Table.feeds, parentColumn: "id", type: .integer),
                childTables: [Table.enclosures, Table.categories, Table.authors] + episodeTables,
                randomKey: true),
            TableDesign.Table(
                name: Table.enclosures,
                columns: [
                    .init(name: "url", type: .text, notNull: true),
                    .init(name: "type", type: .text),
                    .init(name: "length", type: .integer)
                ],
                primaryKey: ["item_id", "url"],
                foreignKey: itemKey),
            TableDesign.Table(
                name: Table.categories,
                columns: [.init(name: "name", type: .text, notNull: true)],
                primaryKey: ["item_id", "name"],
                foreignKey: itemKey),
            TableDesign.Table(
                name: Table.authors,
                columns: [
                    .init(name: "name", type: .text, notNull: true),
                    .init(name: "email", type: .text, notNull: true),
                    .init(name: "url", type: .text)
                ],
                primaryKey: ["item_id", "name", "email"],
                foreignKey: itemKey),
            TableDesign.Table(
                name: Table.chapters,
                columns: [
                    .init(name: "start_seconds", type: .real, notNull: true),
                    .init(name: "start", type: .text, notNull: true),
                    .init(name: "title", type: .text),
                    .init(name: "href", type: .text),
                    .init(name: "image", type: .text)
                ],
                primaryKey: ["item_id", "start"],
                foreignKey: itemKey),
            TableDesign.Table(
                name: Table.transcripts,
                columns: [
                    .init(name: "url", type: .text, notNull: true),
                    .init(name: "type", type: .text),
                    .init(name: "language", type: .text),
                    .init(name: "rel", type: .text)
                ],
                primaryKey: ["item_id", "url"],
                foreignKey: itemKey),
            TableDesign.Table(
                name: Table.persons,
                columns: personColumns,
                primaryKey: ["item_id", "name", "role"],
                foreignKey: itemKey),
            TableDesign.Table(
                name: Table.funding,
                columns: fundingColumns,
                primaryKey: ["item_id", "url"],
                foreignKey: itemKey),
            TableDesign.Table(
                name: Table.alternateEnclosures,
                columns: [
                    .init(name: "url", type: .text, notNull: true),
                    .init(name: "type", type: .text),
                    .init(name: "length", type: .integer),
                    .init(name: "bitrate", type: .real),
                    .init(name: "height", type: .integer),
                    .init(name: "lang", type: .text),
                    .init(name: "title", type: .text),
                    .init(name: "rel", type: .text),
                    .init(name: "codecs", type: .text),
                    .init(name: "is_default", type: .bool)
                ],
                primaryKey: ["item_id", "url"],
                foreignKey: itemKey),
            TableDesign.Table(
                name: Table.soundbites,
                columns: [
                    .init(name: "start_seconds", type: .real, notNull: true),
                    .init(name: "duration_seconds", type: .real, notNull: true),
                    .init(name: "title", type: .text)
                ],
                primaryKey: ["item_id", "start_seconds", "duration_seconds"],
                foreignKey: itemKey),
            TableDesign.Table(
                name: Table.showPersons,
                columns: personColumns,
                primaryKey: ["feed_id", "name", "role"],
                foreignKey: feedKey),
            TableDesign.Table(
                name: Table.showFunding,
                columns: fundingColumns,
                primaryKey: ["feed_id", "url"],
                foreignKey: feedKey)
        ], upsert: true)

    /// The child tables of `items` a podcast app queries.
    static let episodeTables = [
        Table.chapters, Table.transcripts, Table.persons, Table.funding,
        Table.alternateEnclosures, Table.soundbites
    ]

    /// The columns of `persons` and `show_persons` beside the parent's key.
    private static let personColumns: [TableDesign.Column] = [
        .init(name: "name", type: .text, notNull: true),
        .init(name: "role", type: .text, notNull: true),
        .init(name: "role_group", type: .text),
        .init(name: "img", type: .text),
        .init(name: "href", type: .text)
    ]

    /// The columns of `funding` and `show_funding` beside the parent's key.
    private static let fundingColumns: [TableDesign.Column] = [
        .init(name: "url", type: .text, notNull: true),
        .init(name: "text", type: .text)
    ]

    /// The child tables of `feeds` a podcast app queries: the show's own people and
    /// funding, which the Podcasting 2.0 namespace puts on the channel.
    static let showTables = [Table.showPersons, Table.showFunding]

    /// The `items` columns added with the episode tables, which an earlier archive
    /// gains on its next run, filled for the items stored before from their
    /// `extensions`.
    static let episodeColumns = ["duration_seconds", "episode", "season", "episode_type", "explicit"]

    /// The `feeds` columns added with the schedule and subscription lists, which an
    /// earlier archive gains on its next run.
    static let scheduleColumns: Set<String> = [
        "failures", "next_fetch", "ttl", "skip_hours", "skip_days", "update_period", "update_frequency",
        "subscription_categories"
    ]

    /// The archive's table names.
    public enum Table {
        /// One row per source.
        public static let feeds = "feeds"
        /// One row per item, whatever the runs that saw it.
        public static let items = "items"
        /// The files attached to items.
        public static let enclosures = "enclosures"
        /// The categories (tags) of items.
        public static let categories = "categories"
        /// The authors of items.
        public static let authors = "authors"
        /// An episode's chapters (Podlove Simple Chapters), by start time.
        public static let chapters = "chapters"
        /// An episode's transcripts (`podcast:transcript`).
        public static let transcripts = "transcripts"
        /// The people of an episode (`podcast:person`).
        public static let persons = "persons"
        /// Where an episode asks for support (`podcast:funding`).
        public static let funding = "funding"
        /// An episode's other files (`podcast:alternateEnclosure`), by first source.
        public static let alternateEnclosures = "alternate_enclosures"
        /// An episode's highlights (`podcast:soundbite`).
        public static let soundbites = "soundbites"
        /// The people of a show (`podcast:person` on the channel).
        public static let showPersons = "show_persons"
        /// Where a show asks for support (`podcast:funding` on the channel).
        public static let showFunding = "show_funding"
    }

    private static let feedKey = TableDesign.ForeignKey(
        column: "feed_id", parentTable: Table.feeds,
        parentColumn: "id", type: .integer)
    private static let itemKey = TableDesign.ForeignKey(
        column: "item_id", parentTable: Table.items,
        parentColumn: "id", type: .integer)
}
