import IngestCore
import IngestPOSIX
import Foundation

extension RecordReader {
    /// Reads `inputs` on up to `jobs` threads at once, each input into a pipe of its
    /// own, while this thread writes them to `sink` one after another, in order: the
    /// same records, in the same order, as reading them one at a time, in less time
    /// when there are cores to spare.
    ///
    /// An input is begun only while fewer than `jobs` inputs are read and not yet
    /// written. An input read ahead of its turn keeps three batches in memory and
    /// sets the rest aside in a temporary file (``RecordSpill``), up to `spillLimit`
    /// bytes, then waits: memory is bounded by `jobs` × three batches whatever the
    /// inputs' sizes, and disk by `jobs × spillLimit`. The first failure in input
    /// order is thrown, naming its input; the inputs after it are stopped.
    ///
    /// An input may be a part of a JSON Lines or XML file (``InputFile/piece``), right
    /// after the file's part before it: its records' lines are moved down by the
    /// lines of the parts before it, it is read again on this thread from where the
    /// part before really ended when that is not where it started, and the file fails
    /// for holding none of the mapping's records only when none of its parts holds one.
    ///
    /// `progress` hears the input being written, from the thread reading it, with its
    /// bytes read and the records produced so far over all inputs. `written` is
    /// called on this thread after each input, with the input.
    func readInParallel(
        _ inputs: [InputFile], jobs: Int, spillLimit: Int, into sink: CountingSink,
        progress: ((_ input: Int, _ bytes: Int, _ records: Int) -> Void)?,
        written: (Int) -> Void
    ) throws {
        let lanes = InputLanes(inputs.map(\.displayName), jobs: jobs, spillLimit: spillLimit)
        let reader = UncheckedBox(self)
        let shared = UncheckedBox(inputs)
        let report = UncheckedBox(progress)
        for _ in 0..<min(jobs, inputs.count) {
            LargeStackThread.detach {
                while let (index, pipe) = lanes.nextInput() {
                    do {
                        let produced = CountingSink(forwardingTo: pipe)
                        try reader.value.read(shared.value[index], into: produced) { bytes in
                            // A part read again by the writer is reported from there.
                            if let before = lanes.recordsBefore(index), !pipe.isStopped {
                                report.value?(index, bytes, before + produced.recordCount)
                            }
                        }
                        try pipe.finish()
                    } catch {
                        pipe.fail(error)
                    }
                }
                lanes.readerDone()
            }
        }
        // No reading thread outlives this call, whichever side fails.
        defer { lanes.waitForReaders() }
        var file = FileParts()
        for index in inputs.indices {
            let input = inputs[index]
            let pipe = lanes.startWriting(index, recordsBefore: sink.recordCount)
            if input.piece.map({ $0.start == 0 }) ?? true { file = FileParts() }
            // A part of an XML file is read after a line of its records' ancestors.
            let target = LineShiftingSink(sink, lines: file.lineEnds - (input.piece?.xml?.prefixLines ?? 0))
            do {
                if let piece = input.piece, piece.start != file.end {
                    // The part before ran past this one's start (a value spanned the
                    // line end it was to stop at): read this one again from its end.
                    pipe.stop()
                    file.add(try readAgain(piece, from: file.end, of: input, into: target))
                } else {
                    try pipe.drain(into: target)
                    if let piece = input.piece { file.add(piece) }
                }
                if let piece = input.piece {
                    // A part's reader is done long before its records are written:
                    // the writer tells how far the file has got.
                    progress?(index, file.end - piece.start, sink.recordCount)
                    let isLastPart = index + 1 == inputs.count || inputs[index + 1].piece?.start ?? 0 == 0
                    if isLastPart, let unmatched = file.unmatchedEverywhere {
                        try failAsWhole(input, else: unmatched)
                    }
                }
            } catch {
                lanes.cancel()
                // The sink's errors name the input too, as the readers' do.
                let error = target.shifted(error)
                if let error = error as? IngestError { throw error.inFile(input.displayName) }
                throw error
            }
            lanes.finishedWriting(index)
            written(index)
        }
    }

    /// Reads on this thread the part of `input` that `piece` was meant to be, from
    /// `start` (where the part before it really ended), into `sink`; the part as read.
    private func readAgain(
        _ piece: FilePiece, from start: Int, of input: InputFile, into sink: any RecordSink
    ) throws -> FilePiece {
        let again = FilePiece(start: start, endsNear: piece.endsNear, xml: piece.xml)
        // The part before covered this one too: nothing is left of it.
        if let endsNear = piece.endsNear, start >= endsNear { return again }
        if let size = input.storedSize, start >= size { return again }
        let part = try InputFile(piece: again, of: input)
        try read(part, into: sink, progress: nil)
        return again
    }

    /// No part of the file `part` belongs to held one of the mapping's records: fails
    /// as the file read whole does. Each part saw only some of what the message
    /// words (which elements were met, the paths suggested), so the file is read
    /// whole, into nothing, for its error; `fallback` if that read finds a record.
    private func failAsWhole(_ part: InputFile, else fallback: any Error) throws -> Never {
        guard let path = part.path else { throw fallback }
        try read(InputFile(path: path), into: DiscardingOutput(), progress: nil)
        throw fallback
    }
}

/// The parts of one JSON Lines file written so far: where the last one ended, the
/// lines they held, and whether any held one of the mapping's records.
private struct FileParts {
    var end = 0
    var lineEnds = 0
    var unmatched: (any Error)?
    var matched = false

    mutating func add(_ piece: FilePiece) {
        guard let pieceEnd = piece.end, pieceEnd > piece.start else { return }
        end = pieceEnd
        lineEnds += piece.lineEnds
        if let error = piece.unmatched {
            if unmatched == nil { unmatched = error }
        } else {
            matched = true
        }
    }

    /// After the file's last part: the first part's error when no part held a record.
    var unmatchedEverywhere: (any Error)? { matched ? nil : unmatched }
}

/// The inputs of ``RecordReader/readInParallel(_:jobs:spillLimit:into:progress:written:)``:
/// which to read next, each one's pipe, and which is being written.
private final class InputLanes: @unchecked Sendable {
    // Safety: `condition` guards every member below but the constants.
    private let condition = NSCondition()
    private let jobs: Int
    private let spillLimit: Int
    private let names: [String]
    private var pipes: [RecordPipe?]
    /// The next input to begin reading.
    private var next = 0
    /// The input being written (all before it are), and the records written before it.
    private var writing = 0
    private var recordsBeforeWriting = 0
    private var cancelled = false
    private var readers: Int

    init(_ names: [String], jobs: Int, spillLimit: Int) {
        self.names = names
        pipes = Array(repeating: nil, count: names.count)
        self.jobs = max(1, jobs)
        self.spillLimit = spillLimit
        readers = min(self.jobs, names.count)
    }

    /// The next input for a reading thread and the pipe to read it into, once fewer
    /// than `jobs` inputs are read and not yet written; `nil` when none is left, or
    /// the import stopped.
    func nextInput() -> (Int, RecordPipe)? {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled && next < pipes.count && next >= writing + jobs { condition.wait() }
        guard !cancelled, next < pipes.count else { return nil }
        let index = next
        next += 1
        let pipe = RecordPipe(spillLimit: spillLimit, spillName: names[index])
        pipes[index] = pipe
        condition.broadcast()
        return (index, pipe)
    }

    /// The records written before input `index` when it is the one being written,
    /// else `nil`.
    func recordsBefore(_ index: Int) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        return index == writing ? recordsBeforeWriting : nil
    }

    /// Waits for input `index`'s pipe, and makes it the one being written.
    func startWriting(_ index: Int, recordsBefore: Int) -> RecordPipe {
        condition.lock()
        defer { condition.unlock() }
        writing = index
        recordsBeforeWriting = recordsBefore
        while pipes[index] == nil { condition.wait() }
        return pipes[index]!
    }

    /// Input `index` is written: its pipe goes, and the next input may begin.
    func finishedWriting(_ index: Int) {
        condition.lock()
        pipes[index] = nil
        writing = index + 1
        condition.broadcast()
        condition.unlock()
    }

    /// The import stopped: no input begins, and those being read stop at their next
    /// record.
    func cancel() {
        condition.lock()
        cancelled = true
        let open = pipes.compactMap { $0 }
        condition.broadcast()
        condition.unlock()
        for pipe in open { pipe.stop() }
    }

    /// A reading thread is done.
    func readerDone() {
        condition.lock()
        readers -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every reading thread is done.
    func waitForReaders() {
        condition.lock()
        while readers > 0 { condition.wait() }
        condition.unlock()
    }
}
