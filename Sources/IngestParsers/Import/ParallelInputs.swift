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
                            if let before = lanes.recordsBefore(index) {
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
        for index in inputs.indices {
            let pipe = lanes.startWriting(index, recordsBefore: sink.recordCount)
            do {
                try pipe.drain(into: sink)
            } catch {
                lanes.cancel()
                // The sink's errors name the input too, as the readers' do.
                if let error = error as? IngestError { throw error.inFile(inputs[index].displayName) }
                throw error
            }
            lanes.finishedWriting(index)
            written(index)
        }
    }
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
