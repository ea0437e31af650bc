/// Notes, while a document streams by, where its records probably are, so that a
/// record path that matched nothing can be answered with the paths the user likely
/// meant: `--records people/persn` → "records are at people/person".
///
/// A candidate is an element path under which elements of one name repeat within one
/// parent (`people/person`, `rss/channel/item`), and, as records are by default,
/// the document element's children; in JSON also every array's items
/// (`people/item`). ``suggestions(for:format:limit:)`` ranks them by closeness to
/// what was typed (edit distance), then by how often they occur.
///
/// It costs little and holds little: a ``HandlerStack`` tells it every element
/// (skipped ones too) only until the mapping finds its first record and calls
/// ``finish()``, and it keeps at most ``maxPaths`` distinct paths no deeper than
/// ``maxDepth`` levels, whatever the document's size.
public final class RecordPathSurvey {
    /// Distinct paths noted at most; paths met once the table is full are not noted.
    public let maxPaths: Int
    /// Deepest level noted (the document element is 1).
    public let maxDepth: Int
    /// Whether the mapping found a record: nothing more is noted.
    public private(set) var isFinished = false

    private struct Path {
        let parent: Int32
        let name: Name
        let depth: Int
        var count = 0
        var repeats = false
        /// The serial of the parent element this path was last met under.
        var lastParent = -1
    }

    private var paths: [Path] = []
    /// Path index by parent path and name id.
    private var index: [Int: Int32] = [:]
    /// The open elements no deeper than `maxDepth`: their path (-1 when not noted) and serial.
    private var open: [(path: Int32, serial: Int)] = []
    private var serial = 0
    private var remaining = Int.max
    private var verdict: (() -> IngestError)?

    /// A survey that notes up to `maxPaths` distinct paths no deeper than `maxDepth`.
    public init(maxPaths: Int = 2048, maxDepth: Int = 32) {
        self.maxPaths = maxPaths
        self.maxDepth = maxDepth
    }

    /// How many distinct paths are noted (at most ``maxPaths``).
    public var notedPathCount: Int { paths.count }

    /// The mapping found a record: stop noting.
    public func finish() {
        isFinished = true
        paths = []
        index = [:]
        open = []
    }

    /// How many elements a mapping lets a survey note, for the suggestions, once the
    /// document element has shown that its path cannot match: enough to see a
    /// document's shape, without reading a huge wrong input to its end.
    public static let elementsNotedAfterMismatch = 100_000

    /// The mapping already knows the path cannot match (the document element is
    /// another): note `elements` more elements at most for the suggestions, then
    /// throw what `error` gives.
    public func stop(after elements: Int, throwing error: @escaping () -> IngestError) {
        remaining = elements
        verdict = error
    }

    /// An element starts at `depth` (1 for the document element).
    public func didStart(_ name: Name, depth: Int) throws {
        if let verdict {
            remaining -= 1
            if remaining < 0 { throw verdict() }
        }
        guard depth <= maxDepth, depth == open.count + 1 else { return }
        serial += 1
        let parent = open.last ?? (path: -1, serial: 0)
        var path: Int32 = -1
        if depth == 1 || parent.path >= 0 {
            let key = Int(parent.path + 1) << 32 | name.id
            if let known = index[key] {
                path = known
            } else if paths.count < maxPaths {
                path = Int32(paths.count)
                paths.append(Path(parent: parent.path, name: name, depth: depth))
                index[key] = path
            }
        }
        if path >= 0 {
            let at = Int(path)
            paths[at].count += 1
            if paths[at].lastParent == parent.serial { paths[at].repeats = true }
            paths[at].lastParent = parent.serial
        }
        open.append((path, serial))
    }

    /// The element at `depth` ends.
    public func didEnd(depth: Int) {
        if depth == open.count { open.removeLast() }
    }

    /// Up to `limit` record paths the document holds, closest to any of `typed` first
    /// (by edit distance), then the most frequent; written as a record path is for
    /// `format` (JSON paths start below the top-level value, `people/item`). Paths
    /// equal to one typed are left out.
    public func suggestions(for typed: [String], format: InputFormat, limit: Int = 5) -> [String] {
        let isJSON = format != .xml
        var candidates: [(path: String, distance: Int, count: Int)] = []
        for (number, path) in paths.enumerated() {
            let isItem = isJSON && path.name.qualified == "item"
            guard path.repeats || path.depth == 2 && !isJSON || isItem else { continue }
            var steps: [String] = []
            var at = Int32(number)
            while at >= 0 {
                steps.append(paths[Int(at)].name.qualified)
                at = paths[Int(at)].parent
            }
            steps.reverse()
            if isJSON { steps.removeFirst() }
            guard !steps.isEmpty else { continue }
            let written = steps.joined(separator: "/")
            guard !typed.contains(written) else { continue }
            let distance = typed.map { Self.editDistance($0, written) }.min() ?? 0
            candidates.append((written, distance, path.count))
        }
        candidates.sort {
            $0.distance != $1.distance
                ? $0.distance < $1.distance : $0.count != $1.count ? $0.count > $1.count : $0.path < $1.path
        }
        return candidates.prefix(limit).map(\.path)
    }

    /// Levenshtein distance between the Unicode scalars of `a` and `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count), current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
