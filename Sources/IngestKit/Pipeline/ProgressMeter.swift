#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress bar on standard error — percent, MB/s, records/s and time
/// left — for inputs of known size. It draws only when standard error is a terminal,
/// at most ten times a second, and erases itself when done.
///
/// It may be updated from a parsing thread, but from one thread at a time.
public final class ProgressMeter: @unchecked Sendable {
    private let label: String
    private let total: Int
    private let started = Clock.now
    private var lastDraw = 0.0
    private var drew = false
    private let enabled: Bool

    /// - Parameters:
    ///   - label: the input's name.
    ///   - total: its size in bytes, or `nil` when unknown (then nothing is drawn).
    ///   - enabled: `false` forces silence (`--quiet`).
    public init(label: String, total: Int?, enabled: Bool = true) {
        self.label = label
        self.total = total ?? 0
        self.enabled = enabled && total != nil && total! > 0 && StandardError.isTerminal
    }

    /// Reports `bytes` of the input consumed and `records` written so far.
    public func update(bytes: Int, records: Int) {
        guard enabled else { return }
        let elapsed = Clock.now - started
        guard elapsed - lastDraw >= 0.1 else { return }
        lastDraw = elapsed
        let fraction = min(1, Double(bytes) / Double(total))
        let width = 24
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        let megabytesPerSecond = Double(bytes) / 1_048_576 / max(elapsed, 0.001)
        let recordsPerSecond = Double(records) / max(elapsed, 0.001)
        let remaining = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
        let line = "\r\(label) [\(bar)] \(Int(fraction * 100))%  \(format(megabytesPerSecond)) MB/s  \(Int(recordsPerSecond)) rec/s  \(Int(remaining.rounded()))s left \u{1B}[K"
        StandardError.write(line)
        drew = true
    }

    /// Erases the bar.
    public func finish() {
        if drew { StandardError.write("\r\u{1B}[K") }
        drew = false
    }

    private func format(_ value: Double) -> String {
        String(Int(value * 10) / 10) + "." + String(Int(value * 10) % 10)
    }
}

/// Monotonic seconds, for rates and durations.
public enum Clock {
    public static var now: Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
