import Foundation
import IngestCore
import IngestPOSIX

/// Carries a parser's events to a receiver on a thread of its own, so that parsing
/// and mapping run at once: the receiver the parser is given writes each event on an
/// ``EventTape``, and a full tape goes to the receiving thread, which plays it back.
///
/// The receiver sees the events it would have seen from the parser directly, in the
/// same order, and the errors it would have seen:
/// - a receiver's error stops the parse (at the next tape handed over) and is the one
///   thrown, with the position of the event it was thrown at;
/// - a parse error is thrown once every event before it has been received, unless
///   the receiver failed on one of them — that error came first in the document.
///
/// Memory: ``depth`` tapes of about ``tapeBytes`` each wait for the receiver, so the
/// parser is at most that far ahead of the mapping. The names on the tapes are kept
/// alive here, so a parser may free its name table before the receiver is done.
///
/// For a regular file only: the parser reads ahead on its own, and nothing that
/// reads the input (an input's `whenIdle`, which flushes the mapping) may touch
/// the receiver meanwhile.
package final class EventRelay: ParseEventReceiver, @unchecked Sendable {
    // Safety (`@unchecked Sendable`, `@exclusivity(unchecked)`): `tape` and the kept
    // names belong to the parsing thread, and no access to one overlaps another;
    // `full`, `empty`, `closed` and `failure` are read and written under `condition`;
    // a tape in `full` is played only by the receiving thread, which puts it in
    // `empty` when done, so no tape is used by two threads at once.

    /// The bytes a tape holds before it is handed over: small enough to stay in the
    /// cores' caches, large enough that handing over is rare.
    package static let tapeBytes = 256 << 10
    /// The tapes that may wait for the receiver.
    package static let depth = 4

    private let condition = NSCondition()
    @exclusivity(unchecked) private var tape = EventTape(capacity: tapeBytes)
    private var full: [EventTape] = []
    private var empty: [EventTape] = []
    private var closed = false
    private var failure: (any Error)?

    /// Each name written so far, by its id, as a pointer: the quick check that it is kept.
    @exclusivity(unchecked) private var keptByID: [UnsafeMutableRawPointer?] = []
    /// The names written so far, held strongly.
    @exclusivity(unchecked) private var kept: [Name] = []
    /// Names kept whose id another name held first (a receiver fed from two tables).
    private var keptFromOtherTables: Set<ObjectIdentifier> = []

    private init() {}

    deinit {
        tape.deallocate()
        for tape in full + empty { tape.deallocate() }
    }

    /// Runs `parse` with a receiver that relays its events to `receiver`, played on
    /// a thread of its own, and returns once `receiver` has had them all. Throws the
    /// receiver's error if it failed, else the parse's.
    ///
    /// `parse` is also given the closure to report its progress to: `progress`, called
    /// on the receiving thread once the events before it are received, so that it may
    /// read what the receiver counts.
    package static func overlap(
        into receiver: any ParseEventReceiver, progress: ((Int) -> Void)? = nil,
        _ parse: (_ receiver: any ParseEventReceiver, _ progress: ((Int) -> Void)?) throws -> Void
    ) throws {
        let relay = EventRelay()
        var parseError: (any Error)?
        // The receiver is let go of on its thread, before the caller goes on.
        LargeStackThread.alongside({ relay.receive(into: Target(receiver, progress: progress)) }) {
            do {
                try parse(relay, progress == nil ? nil : { relay.tape.writeProgress($0) })
            } catch {
                parseError = error
            }
            relay.close()
        }
        if let failure = relay.failure { throw failure }
        if let parseError { throw parseError }
    }

    // MARK: The parsing thread

    package func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {
        keep(name)
        for attribute in attributes { keep(attribute.name) }
        tape.writeStart(name, attributes: attributes, at: position)
        if tape.count >= Self.tapeBytes { try handOver() }
    }

    package func startElement(_ name: Name, kind: ContentKind, at position: SourcePosition) throws {
        keep(name)
        tape.writeStart(name, kind: kind, at: position)
        if tape.count >= Self.tapeBytes { try handOver() }
    }

    package func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {
        tape.writeText(bytes, at: position)
        if tape.count >= Self.tapeBytes { try handOver() }
    }

    package func endElement(_ name: Name, at position: SourcePosition) throws {
        tape.writeEnd(name, at: position)
        if tape.count >= Self.tapeBytes { try handOver() }
    }

    package func scalar(
        _ name: Name, kind: ContentKind, text: UnsafeBufferPointer<UInt8>, at position: SourcePosition
    ) throws {
        keep(name)
        tape.writeScalar(name, kind: kind, text: text, at: position)
        if tape.count >= Self.tapeBytes { try handOver() }
    }

    /// Holds `name` until the relay is gone (an end tag's name was kept at its start).
    @inline(__always)
    private func keep(_ name: Name) {
        let id = name.id
        let pointer = Unmanaged.passUnretained(name).toOpaque()
        if id < keptByID.count, keptByID[id] == pointer { return }
        keepFirstTime(name, pointer)
    }

    private func keepFirstTime(_ name: Name, _ pointer: UnsafeMutableRawPointer) {
        // Ids are a table's places, dense from 0: the array is as long as the table.
        let id = max(name.id, 0)
        while keptByID.count <= id { keptByID.append(nil) }
        if keptByID[id] == nil {
            keptByID[id] = pointer
            kept.append(name)
        } else if keptFromOtherTables.insert(ObjectIdentifier(name)).inserted {
            // Another table's name with the same id: kept once all the same.
            kept.append(name)
        }
    }

    /// Sends the tape to the receiving thread, waiting while ``depth`` tapes wait
    /// there; throws when the receiver has failed, to stop the parse.
    private func handOver() throws {
        condition.lock()
        defer { condition.unlock() }
        while full.count >= Self.depth && failure == nil { condition.wait() }
        if failure != nil { throw ReceiverFailed() }
        full.append(tape)
        tape = empty.popLast() ?? EventTape(capacity: Self.tapeBytes)
        condition.broadcast()
    }

    /// Sends the last tape and tells the receiving thread the events have ended.
    private func close() {
        condition.lock()
        if failure == nil && tape.count > 0 {
            full.append(tape)
            tape = EventTape(capacity: 0)
        }
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Thrown into the parser to stop it once the receiver has failed; the receiver's
    /// error is the one ``overlap(into:_:)`` throws.
    private struct ReceiverFailed: Error {}

    // MARK: The receiving thread

    private func receive(into target: Target) {
        while true {
            condition.lock()
            while full.isEmpty && !closed { condition.wait() }
            if full.isEmpty {
                condition.unlock()
                return
            }
            var next = full.removeFirst()
            condition.broadcast()
            condition.unlock()
            do {
                try target.play(next)
            } catch {
                condition.lock()
                failure = error
                next.deallocate()
                for tape in full { tape.deallocate() }
                full.removeAll()
                condition.broadcast()
                condition.unlock()
                return
            }
            next.clear()
            condition.lock()
            // A tape grown for one large event is not kept for the next ones.
            if next.capacity > 2 * Self.tapeBytes { next.deallocate() } else { empty.append(next) }
            condition.unlock()
        }
    }

    /// The receiver, played to directly when it is a ``/IngestCore/HandlerStack``
    /// (the usual case) rather than through the protocol.
    private final class Target {
        let receiver: any ParseEventReceiver
        let stack: HandlerStack?
        let progress: ((Int) -> Void)?
        /// Scratch for the attributes of each element played.
        var attributes: [Attribute] = []

        init(_ receiver: any ParseEventReceiver, progress: ((Int) -> Void)?) {
            self.receiver = receiver
            stack = receiver as? HandlerStack
            self.progress = progress
        }

        func play(_ tape: EventTape) throws {
            if let stack {
                try tape.play(into: stack, progress: progress, attributes: &attributes)
            } else {
                try tape.play(into: receiver, progress: progress, attributes: &attributes)
            }
        }
    }
}
