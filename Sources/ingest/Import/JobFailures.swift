/// The end of a run in which some inputs failed and the others were written (several
/// inputs, one output each, without `--fail-fast`). Each failure was reported as it
/// happened; this says how many, and exits with the worst one's status.
struct JobFailures: Error {
    /// The inputs of each failed job, as named, with how it failed.
    let failed: [(inputs: String, failure: CommandFailure)]
    /// How many jobs the run had.
    let jobCount: Int

    init(failed: [(inputs: String, failure: CommandFailure)], of jobCount: Int) {
        self.failed = failed
        self.jobCount = jobCount
    }

    /// `2 of 3 inputs failed (b.xml, d.xml); the others were written`.
    var message: String {
        let written = jobCount - failed.count
        let others =
            written == 0 ? "nothing was written" : written == 1 ? "the other was written" : "the others were written"
        return
            "\(failed.count) of \(jobCount) inputs failed (\(failed.map(\.inputs).joined(separator: ", "))); \(others)"
    }

    /// The status of the worst failure: one a person must look at (a bug, a disk, an
    /// output, a missing or bad input) before one that passes by itself (75, try later).
    var status: Int32 {
        failed.map(\.failure.status).max { Self.severity($0) < Self.severity($1) } ?? 1
    }

    /// Severity, from least to most: usage (64), try later (75), data (65), no input
    /// (66), output (73), I/O (74), software (70).
    static func severity(_ status: Int32) -> Int {
        [64, 75, 65, 66, 73, 74, 70].firstIndex(of: status) ?? 7
    }
}
