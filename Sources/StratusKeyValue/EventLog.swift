public import Foundation
internal import StratusSync
internal import Synchronization

/// One event in an ``EventLog``.
public struct LoggedEvent: Hashable, Sendable {
    /// The device that appended it.
    public var device: String
    /// Its place among that device's events, from 1.
    public var sequence: Int64
    /// When it happened, by its device's clock (never earlier than the device's previous event).
    public var timestamp: Date
    /// What happened, such as `"purchased"`.
    public var name: String
    /// Details, such as `["item": "fertilizer", "count": 8]`.
    public var payload: KeyValue
}

/// A per-device, append-only log of app events (`purchased 8 fertilizer`, `used 1 on flower A`),
/// synced with the ``KeyValueStore`` it belongs to.
///
/// Devices never conflict: each appends only to its own records. Every device reads the merged
/// log in one order — by timestamp, then device, then sequence — and folds it into its state, so
/// all devices reach the same state from the same events.
///
/// **A folded state that is not valid** (a balance below zero after offline spending on two
/// devices) is the app's to settle, deterministically, in ``fold(_:_:)``: the closure throws
/// ``Rejection`` for an event that cannot apply, the event is skipped and reported, and every
/// device skips the same one, since all fold the same log in the same order. The app can then
/// append a compensating event (a refund, a notice to the user) from the device that made it.
public final class EventLog: Sendable {
    static let recordType = "events"
    /// Events per record: a device's log is split into records of this many, and only the last
    /// one is ever rewritten.
    static let segmentSize = 256

    /// The events of one device's segment are only written by that device; should two installs
    /// share a device name, their segments merge as the union of both.
    static let policy = ConflictPolicy.merge { input in
        let mine = try events(in: input.local)
        let theirs = try events(in: input.remote)
        var seen = Set(mine)
        var all = mine
        for event in theirs where seen.insert(event).inserted { all.append(event) }
        return .merged(json(of: all.sorted(by: ordered)), files: [:])
    }

    private let store: SyncStore
    private let lock = Mutex(())

    init(store: SyncStore) {
        self.store = store
    }

    /// A failure to apply one event while folding: the event is skipped and reported.
    public struct Rejection: Error, Sendable {
        /// Why the event cannot apply.
        public var reason: String
        /// Creates a rejection.
        public init(_ reason: String) { self.reason = reason }
    }

    /// Appends an event to this device's log; the next ``KeyValueStore/synchronize()`` syncs it.
    /// - Returns: The event as logged.
    /// - Throws: ``KeyValueError``: `invalidValue` for a payload with a number that is not finite,
    ///   `overflow` when this device has no sequence number left, `invalidDocument` when this
    ///   device's last event record cannot be read. ``/StratusSync/SyncError``: `database` when
    ///   the local state cannot be read or written, `invalidKey` when this device's name makes no
    ///   valid record id.
    @discardableResult
    public func append(_ name: String, payload: KeyValue = [:]) throws -> LoggedEvent {
        try payload.checkRepresentable("The payload of the event \(name.debugDescription)")
        return try lock.withLock { _ in
            let device = store.deviceName
            let own = try store.records(ofType: Self.recordType)
                .filter { Self.segment(of: $0.key.id, device: device) != nil }
                .max { $0.key.id < $1.key.id }
            var events = try own.map { try Self.events(in: $0) } ?? []
            var segment = own.flatMap { Self.segment(of: $0.key.id, device: device) } ?? 0
            let last = events.last
            if events.count >= Self.segmentSize {
                segment += 1
                events = []
            }
            let (sequence, overflow) = (last?.sequence ?? Int64(segment * Self.segmentSize)).addingReportingOverflow(1)
            guard !overflow else {
                throw KeyValueError(.overflow, "This device's event log has no sequence number left.")
            }
            let event = LoggedEvent(
                device: device, sequence: sequence, timestamp: max(Date(), last?.timestamp ?? .distantPast), name: name,
                payload: payload)
            events.append(event)
            let id = device + "." + String(format: "%08d", segment)
            try store.save(Self.json(of: events), as: RecordKey(type: Self.recordType, id: id))
            return event
        }
    }

    /// Every device's events this device has, in the one order all devices use.
    /// - Throws: ``KeyValueError`` (`invalidDocument`) when an event record is not of the event
    ///   log's format. ``/StratusSync/SyncError`` (`database`) when the local state cannot be read.
    public func events() throws -> [LoggedEvent] {
        try store.records(ofType: Self.recordType)
            .flatMap { try Self.events(in: $0) }
            .sorted(by: Self.ordered)
    }

    /// Folds the log into a state, skipping events the closure rejects.
    /// - Parameters:
    ///   - initial: The state before any event.
    ///   - apply: Applies one event; throws ``Rejection`` when it cannot.
    /// - Returns: The state, and the rejected events with their reasons.
    /// - Throws: What ``events()`` throws, and any error of `apply` other than ``Rejection``.
    public func fold<State>(_ initial: State, _ apply: (inout State, LoggedEvent) throws -> Void) throws -> (
        state: State, rejected: [(LoggedEvent, String)]
    ) {
        var state = initial
        var rejected: [(LoggedEvent, String)] = []
        for event in try events() {
            var attempt = state
            do {
                try apply(&attempt, event)
                state = attempt
            } catch let rejection as Rejection {
                rejected.append((event, rejection.reason))
            }
        }
        return (state, rejected)
    }

    /// The segment number of a record id of `device`'s, or `nil` for another device's record
    /// (ids are `DEVICE.NNNNNNNN`, so `a` never reads `a.b`'s).
    static func segment(of id: String, device: String) -> Int? {
        guard id.hasPrefix(device + ".") else { return nil }
        let digits = id.dropFirst(device.count + 1)
        guard digits.count == 8, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int(digits)
    }

    static func ordered(_ one: LoggedEvent, _ other: LoggedEvent) -> Bool {
        if one.timestamp != other.timestamp { return one.timestamp < other.timestamp }
        if one.device != other.device { return one.device < other.device }
        return one.sequence < other.sequence
    }

    static func json(of events: [LoggedEvent]) -> JSONValue {
        .array(
            events.map { event in
                .object([
                    "device": .string(event.device),
                    "sequence": .integer(event.sequence),
                    "timestamp": KeyValue.date(event.timestamp).json,
                    "name": .string(event.name),
                    "payload": event.payload.json,
                ])
            })
    }

    static func events(in record: SyncRecord) throws -> [LoggedEvent] {
        guard case .array(let items) = record.value else {
            throw KeyValueError(.invalidDocument, "The event record \(record.key) is not an array.")
        }
        return try items.map { item in
            guard case .object(let fields) = item, case .string(let device)? = fields["device"],
                case .integer(let sequence)? = fields["sequence"],
                let stamp = fields["timestamp"], case .date(let timestamp) = try KeyValue(json: stamp),
                case .string(let name)? = fields["name"], let payload = fields["payload"]
            else {
                throw KeyValueError(
                    .invalidDocument, "An event in \(record.key) lacks a device, sequence, timestamp, name or payload.")
            }
            return LoggedEvent(
                device: device, sequence: sequence, timestamp: timestamp, name: name,
                payload: try KeyValue(json: payload))
        }
    }
}
