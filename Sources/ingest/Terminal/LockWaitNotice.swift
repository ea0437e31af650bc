/// The line a run prints when it starts waiting for another run's lock on its output.
enum LockWaitNotice {
    /// `waiting for process 4242, which is writing folks.db (up to 60 s, --lock-timeout)`.
    /// `option` names the setting that changes the wait, when the command has one.
    static func text(holder: Int32?, output: String, timeout: Double, option: String? = "--lock-timeout") -> String {
        let who = holder.map { "process \($0)" } ?? "another run"
        let limit = timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)
        return "waiting for \(who), which is writing \(output) (up to \(limit) s\(option.map { ", \($0)" } ?? ""))"
    }
}
