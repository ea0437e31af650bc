import IngestCore
import IngestParsers

extension ByteSource {
    /// This input as it should be parsed: decompressed when its first bytes are the
    /// magic number of a ``CompressionFormat``, unchanged otherwise — "open this,
    /// decompressing if it is compressed". It never seeks, so standard input and pipes
    /// work as files do.
    ///
    /// ```swift
    /// let file = try InputFile(path: path)            // or "-" for standard input
    /// let source = try file.decompressingIfCompressed()
    /// // Progress on the bytes of the file, compressed or not:
    /// let compressed = source as? DecompressingSource
    /// try parse(source) { consumed in meter.update(compressed?.compressedBytesRead ?? consumed) }
    /// ```
    ///
    /// Call it before the first read, and afterwards read only the source it returns:
    /// - a ``DecompressingSource`` when the input is compressed;
    /// - otherwise, an ``/IngestParsers/InputFile`` itself (its own ``/IngestParsers/InputFile/peek(atLeast:_:)`` looked at the
    ///   first bytes, and it serves them again), or for any other source a wrapper that
    ///   serves the bytes looked at and then the rest.
    ///
    /// - Parameters:
    ///   - memoryLimit: passed to ``DecompressingSource/init(_:format:memoryLimit:inputBufferSize:)``.
    ///   - inputBufferSize: passed to ``DecompressingSource/init(_:format:memoryLimit:inputBufferSize:)``:
    ///     a small one keeps ``DecompressingSource/compressedBytesRead`` close to what
    ///     was decoded, for a caller that bounds the ratio of the two.
    public func decompressingIfCompressed(
        memoryLimit: Int = DecompressingSource.defaultMemoryLimit,
        inputBufferSize: Int = defaultChunkSize
    ) throws -> any ByteSource {
        if let file = self as? InputFile {
            guard let format = try CompressionFormat.detect(in: file) else { return file }
            return try DecompressingSource(
                file, format: format, memoryLimit: memoryLimit, inputBufferSize: inputBufferSize)
        }
        let replaying = try ReplayingSource(readingStartOf: self, count: CompressionFormat.magicByteCount)
        guard let format = replaying.prefix.withUnsafeBytes({ CompressionFormat.detect($0) }) else { return replaying }
        return try DecompressingSource(
            replaying, format: format, memoryLimit: memoryLimit, inputBufferSize: inputBufferSize)
    }
}

extension InputFile {
    /// This input as it should be parsed: when its first bytes are the magic number of
    /// a ``CompressionFormat``, an input of the decompressed content — named as this
    /// one is, with progress counted on the compressed bytes — otherwise this input
    /// itself. It never seeks, so standard input and pipes work as files do.
    ///
    /// ```swift
    /// let input = try InputFile(path: "people.xml.gz").decompressed()
    /// try Importer().run([input], into: SQLiteOutput(path: "people.db", mode: .replace))
    /// ```
    public func decompressed(memoryLimit: Int = DecompressingSource.defaultMemoryLimit) throws -> InputFile {
        guard let format = try CompressionFormat.detect(in: self) else { return self }
        return InputFile(decoding: try DecompressingSource(self, format: format, memoryLimit: memoryLimit), from: self)
    }
}
