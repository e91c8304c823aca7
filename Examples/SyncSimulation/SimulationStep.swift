/// One step of an adversarial schedule. Devices are numbered from 0; a record is named by its
/// type and number (`tally` records merge as a union of write ids and are never deleted).
public enum SimulationStep: Sendable, Hashable, CustomStringConvertible {
    /// A device saves a new write to a record (a union record gets one more write id).
    case save(device: Int, type: String, record: Int, withFile: Bool)
    /// A device deletes a record, when it has it.
    case delete(device: Int, type: String, record: Int)
    /// These devices call `sync()` at the same time.
    case sync([Int])
    /// A device's automatic sync starts or stops.
    case automatic(device: Int, on: Bool)
    /// A device's process is killed this many milliseconds into a sync, and its store reopened
    /// from its folder.
    case kill(device: Int, afterMilliseconds: Int)
    /// A device goes offline or comes back.
    case offline(device: Int, on: Bool)
    /// The faults change (on the mock's wire and in front of every device).
    case weather(FaultWeather)
    /// Nothing happens for a while (automatic syncs run).
    case pause(milliseconds: Int)
    /// A device's user resolves every waiting conflict.
    case resolveConflicts(device: Int)
    /// A device's app takes the way out of a mass-deletion stop: it accepts the remote's
    /// deletions (``StratusSync/SyncStore/acceptRemoteDeletions()``).
    case acceptRemoteDeletions(device: Int)
    /// Someone deletes a record's document on the remote by hand, leaving no tombstone (to
    /// show the checker is not blind: the record then leaves the devices without a delete).
    case removeDocument(type: String, record: Int)

    /// The step in words, such as `device-1 saves tally/r0`.
    public var description: String {
        switch self {
        case .save(let device, let type, let record, let withFile):
            "device-\(device) saves \(type)/r\(record)" + (withFile ? " with a file" : "")
        case .delete(let device, let type, let record): "device-\(device) deletes \(type)/r\(record)"
        case .sync(let devices): devices.map { "device-\($0)" }.joined(separator: ", ") + " sync at once"
        case .automatic(let device, let on): "device-\(device)'s automatic sync \(on ? "starts" : "stops")"
        case .kill(let device, let milliseconds): "device-\(device) is killed \(milliseconds) ms into a sync"
        case .offline(let device, let on): "device-\(device) goes \(on ? "offline" : "back online")"
        case .weather(let weather): "faults: \(weather)"
        case .pause(let milliseconds): "pause \(milliseconds) ms"
        case .resolveConflicts(let device): "device-\(device) resolves its conflicts"
        case .acceptRemoteDeletions(let device): "device-\(device) accepts the remote's deletions"
        case .removeDocument(let type, let record): "the document of \(type)/r\(record) is deleted by hand"
        }
    }
}
