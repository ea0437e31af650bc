/// A part of one big file, read on its own beside the other parts so that the file
/// is parsed on several cores: the bytes from ``start`` up to the first place at or
/// past ``endsNear`` where a part may end.
///
/// - A JSON Lines file is split at line ends: a part ends at the first line starting
///   at or past ``endsNear`` outside any value.
/// - An XML file is split between records (``xml``): a part ends at the first line at
///   or past ``endsNear`` that starts, after blanks, with a record whose ancestors are
///   those the part began under, where the mapping can begin a part afresh
///   (``/IngestCore/DocumentMapping/mayBeginPart(withRecord:)``). The part's parser
///   reads ``XMLContext/prefix`` (the ancestors' start tags) before the part's bytes.
///
/// Where a part really ends is only known once it is read, since a value may span
/// the place it was meant to stop at (concatenated JSON is read as JSON Lines too;
/// `<person` may begin a line of a comment). The parser reading a part notes ``end``
/// and ``lineEnds``; whoever puts the parts together checks that each part begins
/// where the one before ended and reads it again from there when not, and adds the
/// lines before a part to its positions.
public final class FilePiece: @unchecked Sendable {
    // Safety: the results are written by the one thread parsing the part, and read
    // only after that parse has ended and handed its last records over a lock.
    /// The offset in the file where the part starts: 0, or just after a line end.
    public let start: Int
    /// The part ends at the first place it may end at or past this offset;
    /// `nil`: at the end of the file.
    public let endsNear: Int?
    /// How a part of an XML file is read; `nil` for a part of a JSON Lines file.
    public let xml: XMLContext?
    /// The offset just after the part's last byte, once it is read.
    public package(set) var end: Int?
    /// The line ends (`\n`) the part held, once it is read: what the lines of the
    /// parts after it are shifted by.
    public package(set) var lineEnds = 0
    /// Why the mapping found none of its records in the part, when it found none:
    /// the file fails for it only when no part holds a record.
    package var unmatched: (any Error)?
    /// Asked by the parser of an XML part at each record that may end it: whether
    /// the mapping can begin a part afresh with it. Set by the importer for its
    /// mapping; `nil`: the part is read to the end of the file.
    package var mayEndBefore: ((Name) -> Bool)?

    /// The part from `start` up to the first place it may end at or past `endsNear`
    /// (the end of the file for `nil`); `xml` for a part of an XML file.
    public init(start: Int, endsNear: Int?, xml: XMLContext? = nil) {
        self.start = start
        self.endsNear = endsNear
        self.xml = xml
    }

    /// How a part of an XML file split between records is read.
    public struct XMLContext: Sendable, Equatable {
        /// The depth of the records the file is split between; the document element's
        /// is 1.
        public let recordDepth: Int
        /// The start tags of the records' ancestors as the file has them (line ends
        /// and tabs made spaces), and a line end; empty for the part at the file's
        /// start, which reads them itself.
        public let prefix: [UInt8]

        /// Parts split between records at `recordDepth`, read after `prefix`.
        public init(recordDepth: Int, prefix: [UInt8]) {
            self.recordDepth = recordDepth
            self.prefix = prefix
        }

        /// The lines `prefix` adds before the part's first line.
        public var prefixLines: Int { prefix.isEmpty ? 0 : 1 }
    }
}

/// The name a part of a JSON Lines file had before parts of XML files were read too.
@available(*, deprecated, renamed: "FilePiece")
public typealias JSONLinesPiece = FilePiece
