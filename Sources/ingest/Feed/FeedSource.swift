import ArgumentParser
import Foundation
import IngestKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One SOURCE of `ingest feed`: a file, standard input or an http(s) URL. A
/// directory on the command line stands for the feed files in it
/// (``expanded(skipping:)``).
enum FeedSource: Sendable, Hashable {
    /// A file, by the path given and its absolute form (the archive's name for it,
    /// the same from any working directory).
    case file(path: String, absolute: String)
    /// `-`.
    case standardInput
    /// An `http://` or `https://` URL.
    case url(URL)
    /// A directory given as a source that holds no feed file, or cannot be listed:
    /// `problem` says which. It fails as a missing file does (66), and the archive
    /// keeps no row for it.
    case directory(path: String, problem: String)

    /// Reads a command-line argument; throws a usage error for a URL of another
    /// scheme or one without a host.
    init(argument: String) throws {
        if argument == "-" {
            self = .standardInput
            return
        }
        let lowered = argument.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard let url = URL(string: argument), let host = url.host, !host.isEmpty else {
                throw ValidationError("\(argument): not a URL ingest can read (expected http(s)://host/path).")
            }
            self = .url(url)
            return
        }
        if lowered.hasPrefix("file://"), let url = URL(string: argument), url.isFileURL {
            self = .file(path: url.path, absolute: url.standardizedFileURL.path)
            return
        }
        if let colon = argument.firstIndex(of: ":"), argument[colon...].hasPrefix("://"),
            argument[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        {
            throw ValidationError(
                "\(argument): ingest feed reads files, - and http(s) URLs; not \(argument[..<colon]).")
        }
        self = .file(at: argument)
    }

    /// The file at `path`, as given.
    static func file(at path: String) -> FeedSource {
        .file(path: path, absolute: URL(fileURLWithPath: path).standardizedFileURL.path)
    }

    /// The sources this one stands for: a directory's feed files, else itself.
    ///
    /// A directory's feed files are the regular files directly in it (a symbolic
    /// link to one counts), in the order of their names, leaving out hidden ones
    /// (`.name`: editors' and ingest's own temporary files) and those that are the
    /// same file as one of `skipping` (the run's output and report). Subdirectories
    /// are not entered: a feed directory's `old/` or `failed/` stays out, and a
    /// shell's `**` names deeper files when they are wanted. A directory without
    /// such a file, or one that cannot be listed, is a ``directory(path:problem:)``.
    func expanded(skipping: [String]) -> [FeedSource] {
        var info = stat()
        guard case .file(let path, _) = self, stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            return [self]
        }
        guard let entries = POSIX.entryNames(in: path) else {
            return [.directory(path: path, problem: "cannot list the directory: \(POSIX.lastError)")]
        }
        let names = entries.filter { !$0.hasPrefix(".") }
        let directory = path.hasSuffix("/") ? path : path + "/"
        let files = names.sorted().map { directory + $0 }.filter { file in
            stat(file, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
                && !skipping.contains { FileStatus.sameFile($0, file) }
        }
        guard !files.isEmpty else {
            return [
                .directory(
                    path: path, problem: "a directory without feed files (hidden files and subdirectories are not read)"
                )
            ]
        }
        return files.map { Self.file(at: $0) }
    }

    /// How messages name the source: the path or URL as given, `<stdin>`.
    var displayName: String {
        switch self {
        case .file(let path, _), .directory(let path, _): path
        case .standardInput: "<stdin>"
        case .url(let url): url.absoluteString
        }
    }

    /// Whether `name`, as an error gives it, is this source's.
    func isNamed(_ name: String) -> Bool {
        switch self {
        case .file(let path, let absolute): name == path || name == absolute
        case .standardInput: name == "<stdin>" || name == "-"
        case .url(let url): name == url.absoluteString
        case .directory(let path, _): name == path
        }
    }

    /// The name the archive keeps it under, when it has one before it is read.
    var archiveName: String? {
        switch self {
        case .file(_, let absolute): absolute
        case .standardInput, .directory: nil
        case .url(let url): url.absoluteString
        }
    }

    var isRemote: Bool {
        if case .url = self { true } else { false }
    }
}
