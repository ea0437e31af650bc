/// A part of one JSON Lines file, read on its own beside the other parts so that a
/// big file is parsed on several cores: the bytes from ``start`` (the beginning of
/// a line) up to the first line starting at or past ``endsNear`` outside any value.
///
/// Where a part really ends is only known once it is read, since a value may span
/// the line end it was meant to stop at (concatenated JSON is read as JSON Lines
/// too). A ``JSONParser`` reading a part notes ``end`` and ``lineEnds``; whoever
/// puts the parts together checks that each part begins where the one before ended
/// and reads it again from there when not, and adds the lines before a part to its
/// positions.
public final class JSONLinesPiece: @unchecked Sendable {
    // Safety: the results are written by the one thread parsing the part, and read
    // only after that parse has ended and handed its last records over a lock.
    /// The offset in the file where the part starts: 0, or just after a line end.
    public let start: Int
    /// The part ends where the first line starting at or past this offset outside
    /// any value starts;
    /// `nil`: at the end of the file.
    public let endsNear: Int?
    /// The offset just after the part's last byte, once it is read.
    public package(set) var end: Int?
    /// The line ends (`\n`) the part held, once it is read: what the lines of the
    /// parts after it are shifted by.
    public package(set) var lineEnds = 0
    /// Why the mapping found none of its records in the part, when it found none:
    /// the file fails for it only when no part holds a record.
    package var unmatched: (any Error)?

    /// The part from `start` up to the first line starting at or past `endsNear` outside any
    /// value (the end of the file for `nil`).
    public init(start: Int, endsNear: Int?) {
        self.start = start
        self.endsNear = endsNear
    }
}
