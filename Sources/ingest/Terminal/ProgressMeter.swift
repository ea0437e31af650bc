#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress display on standard error, redrawn in place at most ten
/// times a second and erased when done; nothing at all when standard error is not a
/// terminal.
///
/// - An input of known size (a file) gets a bar: percent, rate, records per second
///   and time left.
/// - Standard input and pipes get what `pv` shows: bytes so far, rate, records.
///
/// The line always fits the terminal: its width is read when the meter starts and
/// again after the window changes size (SIGWINCH); parts are dropped, the label
/// shortened and the bar narrowed rather than let the line wrap.
///
/// It may be updated from a parsing thread, but from one thread at a time.
final class ProgressMeter: @unchecked Sendable {
    private let label: String
    private let total: Int?
    private let started = Stopwatch()
    private var lastDraw = -1.0
    private var drew = false
    private let enabled: Bool
    private var width: Int

    /// - Parameters:
    ///   - label: the input's name.
    ///   - total: its size in bytes, or `nil` when unknown (a pipe).
    ///   - enabled: `false` forces silence (`--quiet`).
    init(label: String, total: Int?, enabled: Bool = true) {
        self.label = label
        self.total = total.flatMap { $0 > 0 ? $0 : nil }
        self.enabled = enabled && StandardError.isTerminal
        width = self.enabled ? TerminalSize.columns() : 80
        if self.enabled { TerminalSize.watchResizes() }
    }

    /// Reports `bytes` of the input read and `records` written so far.
    func update(bytes: Int, records: Int) {
        guard enabled else { return }
        let elapsed = started.seconds
        guard elapsed - lastDraw >= 0.1 else { return }
        lastDraw = elapsed
        if TerminalSize.resized() { width = TerminalSize.columns() }
        let line = Self.line(label: label, bytes: bytes, total: total, records: records, elapsed: elapsed, width: width)
        StandardError.write("\r\(line)\u{1B}[K")
        drew = true
    }

    /// Erases the line.
    func finish() {
        if drew { StandardError.write("\r\u{1B}[K") }
        drew = false
    }

    /// The progress line for a terminal `width` columns wide: at most `width - 1`
    /// characters, so the cursor never reaches the last column and wraps.
    static func line(label: String, bytes: Int, total: Int?, records: Int, elapsed: Double, width: Int) -> String {
        let room = max(width - 1, 0)
        let rate = "\(ByteCount.readable(Int(Double(bytes) / max(elapsed, 0.001))))/s"
        let perSecond = "\(Int(Double(records) / max(elapsed, 0.001))) rec/s"
        var parts: [String]
        var bar: (fraction: Double, percent: String)?
        if let total {
            let fraction = min(1, Double(bytes) / Double(total))
            let remaining = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
            bar = (fraction, "\(Int(fraction * 100))%")
            parts = [rate, perSecond, "\(clock(remaining)) left"]
        } else {
            parts = [ByteCount.readable(bytes), rate, "\(records) records", clock(elapsed)]
        }
        // Drop the least useful parts until the rest, the bar's minimum and a short
        // label fit.
        let minimumBar = bar == nil ? 0 : 12 + 5  // "[" 10 "]" and " 100%"
        func length(_ parts: [String]) -> Int { parts.reduce(0) { $0 + $1.count + 2 } }
        while !parts.isEmpty, length(parts) + minimumBar + 8 > room { parts.removeLast() }
        var text = parts.joined(separator: "  ")
        var budget = room - (text.isEmpty ? 0 : text.count + 2)
        if let bar {
            let labelRoom = min(label.count, max(budget - minimumBar - 1, 0))
            let name = shortened(label, to: labelRoom)
            let inner = max(budget - (name.isEmpty ? 0 : name.count + 1) - 3 - bar.percent.count - 1, 0)
            let filled = Int(bar.fraction * Double(inner))
            let drawn =
                "[" + String(repeating: "=", count: filled) + String(repeating: " ", count: inner - filled) + "] "
                + bar.percent
            let head = (name.isEmpty ? "" : name + " ") + drawn
            text = text.isEmpty ? head : head + "  " + text
        } else {
            budget = max(budget, 0)
            let name = shortened(label, to: budget)
            if !name.isEmpty { text = text.isEmpty ? name : name + "  " + text }
        }
        return String(text.prefix(room))
    }

    /// `label` cut to `count` characters, keeping its end (the file's name): `…ple.xml`.
    static func shortened(_ label: String, to count: Int) -> String {
        if label.count <= count { return label }
        if count < 4 { return "" }
        return "…" + label.suffix(count - 1)
    }

    /// `0:07`, `12:31`, `1:02:03`.
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}

/// The terminal's width, read from standard error, and whether it changed since.
enum TerminalSize {
    nonisolated(unsafe) private static var changed: sig_atomic_t = 0
    nonisolated(unsafe) private static var watching = false

    /// Columns of the terminal on standard error, or 80 when it does not say.
    static func columns() -> Int {
        var size = winsize()
        let status = withUnsafeMutablePointer(to: &size) { ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), $0) }
        return status == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }

    /// Notes SIGWINCH (the window changed size) from now on.
    static func watchResizes() {
        guard !watching else { return }
        watching = true
        signal(SIGWINCH) { _ in TerminalSize.changed = 1 }
    }

    /// Whether the window changed size since the last call.
    static func resized() -> Bool {
        guard changed != 0 else { return false }
        changed = 0
        return true
    }
}

/// Monotonic time since it was made, for rates and durations.
struct Stopwatch: Sendable {
    private let start = Stopwatch.now

    /// Seconds since the stopwatch was made.
    var seconds: Double { Stopwatch.now - start }

    private static var now: Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
