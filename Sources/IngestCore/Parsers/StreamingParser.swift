/// A parser that reads an input in chunks and emits the one event model
/// (``ParseEventReceiver``) as it goes, so memory stays flat whatever the input size.
public protocol StreamingParser {
    /// Parses all of `input`, sending events to `receiver`. `progress` is called after
    /// each chunk with the number of input bytes consumed so far.
    func parse(_ input: InputFile, into receiver: any ParseEventReceiver,
               progress: ((Int) -> Void)?) throws
}

/// How many bytes parsers read at a time.
public let defaultChunkSize = 256 << 10
