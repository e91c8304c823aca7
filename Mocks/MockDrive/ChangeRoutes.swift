import Foundation
import Hummingbird
import MockSupport

/// `changes.getStartPageToken` and `changes.list`.
extension MockDriveServer {
    func startPageToken(_ request: Request) throws -> Response {
        let next = store.withState { $0.nextSequence }
        let token: [String: Any] = ["kind": "drive#startPageToken", "startPageToken": String(next)]
        return try answer(token, request: request, schema: .startPageToken, defaultFields: DefaultFields.startPageToken)
    }

    func listChanges(_ request: Request) throws -> Response {
        let query = DriveQueryParameters(request)
        guard let tokenText = query["pageToken"] else { throw DriveFailure(.requiredParameter("pageToken")) }
        guard let token = Int64(tokenText), token >= 1 else { throw DriveFailure(.invalidParameter("pageToken")) }
        let pageSize = try query.pageSize(default: 100, maximum: options.maximumPageSize)
        let includeRemoved = try query.bool("includeRemoved", default: true)
        _ = try query.bool("restrictToMyDrive", default: false)
        _ = try query.bool("includeCorpusRemovals", default: false)
        _ = try query.bool("includeItemsFromAllDrives", default: false)
        var spaces: Set<DriveSpace> = []
        for name in (query["spaces"] ?? "drive").split(separator: ",") {
            switch name.trimmingOptionalWhiteSpace {
            case "drive": spaces.insert(.drive)
            case "appDataFolder": spaces.insert(.appDataFolder)
            case "photos": break
            default: throw DriveFailure(.invalidParameter("spaces"))
            }
        }
        // A bad `fields` is refused below, after the checks that come first.
        let parsedMask = try? query.mask(schema: .changeList, default: DefaultFields.changeList)
        let mask = parsedMask ?? .all
        let text: [UInt8] = try store.withState { state throws(DriveFailure) in
            guard token <= state.nextSequence else { throw DriveFailure(.invalidParameter("pageToken")) }
            let (page, nextToken) = state.changePage(
                from: token, pageSize: pageSize, spaces: spaces, includeRemoved: includeRemoved)
            var text = ChangeListText(mask: mask, capacity: page.count)
            for record in page {
                text.append(record, node: state.nodes[record.fileID]) { state.isTrashed($0.id) }
            }
            return text.text(
                nextPageToken: nextToken.map { String($0) }, newStartPageToken: String(state.nextSequence))
        }
        if parsedMask == nil { _ = try query.mask(schema: .changeList, default: DefaultFields.changeList) }
        return .json(
            text: String(decoding: text, as: UTF8.self), headers: [.contentType: "application/json; charset=UTF-8"])
    }
}

/// A `changes.list` answer written straight into JSON text, narrowed to its `fields`.
///
/// The same bytes as building the answer from dictionaries, narrowing it with
/// ``FieldMask/apply(_:)`` and writing it with ``SortedJSONText`` (`ChangeListTextTests`
/// compares them), without building a dictionary per change or per file, or walking each page
/// twice: at 1,000 entries a page that cost the mock more CPU than the clients reading the feed.
struct ChangeListText {
    private let listMask: FieldMask
    private let fileMask: FieldMask
    /// Whether the file selection narrows a member's own members (such as `owners(displayName)`),
    /// which only ``FieldMask/apply(_:)`` does.
    private let fileMaskIsNested: Bool
    /// The file members the selection takes, in the order they are written.
    private let fileKeys: [String]
    /// The members of a change with a file and of a removed one, in the order they are written.
    private let presentKeys: [String]
    private let removedKeys: [String]
    /// The elements of `changes`, comma-separated.
    private var changes: [UInt8] = []

    init(mask: FieldMask, capacity: Int) {
        listMask = mask
        let changeMask = DriveNode.nestedFields(mask, "changes")
        fileMask = DriveNode.nestedFields(changeMask, "file")
        fileMaskIsNested = fileMask.members.values.contains { !$0.isEmpty }
        let fileMask = fileMask
        fileKeys = SortedJSONText.ordered(DriveNode.resourceKeys.filter { Self.selects(fileMask, $0) })
        let common = ["kind", "type", "changeType", "fileId", "time", "removed"].filter {
            Self.selects(changeMask, $0)
        }
        presentKeys = SortedJSONText.ordered(common + (Self.selects(changeMask, "file") ? ["file"] : []))
        removedKeys = SortedJSONText.ordered(common)
        changes.reserveCapacity(capacity * 640)
    }

    private static func selects(_ mask: FieldMask, _ key: String) -> Bool {
        mask.isEmpty || mask.selectsAll || mask.members[key] != nil
    }

    /// Writes one change; `isTrashed` says whether a file is in the trash, itself or through a
    /// folder.
    mutating func append(_ record: ChangeRecord, node: DriveNode?, isTrashed: (DriveNode) -> Bool) {
        if !changes.isEmpty { changes.append(UInt8(ascii: ",")) }
        changes.append(UInt8(ascii: "{"))
        for (position, key) in (node == nil ? removedKeys : presentKeys).enumerated() {
            if position > 0 { changes.append(UInt8(ascii: ",")) }
            Self.appendName(key, to: &changes)
            switch key {
            case "kind": SortedJSONText.appendString("drive#change", to: &changes)
            case "type", "changeType": SortedJSONText.appendString("file", to: &changes)
            case "fileId": SortedJSONText.appendString(record.fileID, to: &changes)
            case "time": SortedJSONText.appendString(DriveTime.format(record.time), to: &changes)
            case "removed": changes += node == nil ? Array("true".utf8) : Array("false".utf8)
            default:
                guard let node else { continue }
                appendFile(node, effectivelyTrashed: isTrashed(node))
            }
        }
        changes.append(UInt8(ascii: "}"))
    }

    /// Writes a file's selected members in order, each value as `SortedJSONText` writes it
    /// (narrowed first where the selection reaches inside it).
    private mutating func appendFile(_ node: DriveNode, effectivelyTrashed: Bool) {
        changes.append(UInt8(ascii: "{"))
        var isFirst = true
        for key in fileKeys {
            guard var value = node.member(key, effectivelyTrashed: effectivelyTrashed) else { continue }
            if fileMaskIsNested, let inner = fileMask.members[key], !inner.isEmpty { value = inner.apply(value) }
            if !isFirst { changes.append(UInt8(ascii: ",")) }
            isFirst = false
            Self.appendName(key, to: &changes)
            _ = SortedJSONText.append(value, to: &changes)
        }
        changes.append(UInt8(ascii: "}"))
    }

    /// The whole answer, with the page token that applies.
    func text(nextPageToken: String?, newStartPageToken: String) -> [UInt8] {
        let token = nextPageToken.map { ("nextPageToken", $0) } ?? ("newStartPageToken", newStartPageToken)
        let keys = SortedJSONText.ordered(["kind", "changes", token.0].filter { Self.selects(listMask, $0) })
        var output: [UInt8] = []
        output.reserveCapacity(changes.count + 128)
        output.append(UInt8(ascii: "{"))
        for (position, key) in keys.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            Self.appendName(key, to: &output)
            switch key {
            case "changes":
                output.append(UInt8(ascii: "["))
                output += changes
                output.append(UInt8(ascii: "]"))
            case "kind": SortedJSONText.appendString("drive#changeList", to: &output)
            default: SortedJSONText.appendString(token.1, to: &output)
            }
        }
        output.append(UInt8(ascii: "}"))
        return output
    }

    private static func appendName(_ key: String, to output: inout [UInt8]) {
        SortedJSONText.appendString(key, to: &output)
        output.append(UInt8(ascii: ":"))
    }
}
