import IngestKit

/// The command's exit statuses for the library's classes of failure: BSD's sysexits
/// codes, which cron, shells and schedulers read (75, `EX_TEMPFAIL`, means try again).
extension IngestError.Kind {
    /// 64 usage, 65 data, 66 input, 73 output, 74 I/O, 75 try later.
    var exitCode: Int32 {
        switch self {
        case .usage: 64
        case .data: 65
        case .input: 66
        case .output: 73
        case .io: 74
        case .temporary: 75
        }
    }
}
