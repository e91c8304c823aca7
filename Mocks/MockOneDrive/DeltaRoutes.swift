import Foundation
import Hummingbird
import MockSupport

/// `GET .../delta`: the changes below a folder, read from the change log by position.
///
/// A token is `<epoch>.<position>.<initial>`: the log position the client has seen up to, and
/// whether it is still in its first enumeration (which lists what exists, not what was
/// deleted). ``MockOneDriveServer/expireDeltaTokens()`` moves the epoch on, and a token of an
/// earlier one answers 410 `resyncRequired`.
extension MockOneDriveServer {
    /// A delta token taken apart.
    struct DeltaToken {
        var epoch: Int
        var position: Int
        var initial: Bool

        var text: String { "\(epoch).\(position).\(initial ? 1 : 0)" }

        init(epoch: Int, position: Int, initial: Bool) {
            self.epoch = epoch
            self.position = position
            self.initial = initial
        }

        init?(_ text: String) {
            let parts = text.split(separator: ".")
            guard parts.count == 3, let epoch = Int(parts[0]), let position = Int(parts[1]), position >= 0,
                parts[2] == "0" || parts[2] == "1"
            else { return nil }
            self.init(epoch: epoch, position: position, initial: parts[2] == "1")
        }
    }

    func delta(_ address: GraphAddress, _ graph: GraphRequest) throws(GraphFailure) -> Response {
        let size = try graph.pageSize(default: options.defaultPageSize, maximum: options.maximumPageSize)
        let selection = GraphJSON.selection(graph.query["$select"])
        let tokenText = address.functionToken ?? graph.query["token"] ?? graph.query["$skiptoken"]
        let base = contentBaseText
        let link = graph.linkBase
        let text = try store.withState { (state: inout GraphState) throws(GraphFailure) -> String in
            let scope = try existing(address, in: &state)
            guard scope.isFolder else { throw .invalidRequest("Delta is only supported on folders.") }
            var token = DeltaToken(epoch: state.deltaEpoch, position: 0, initial: true)
            if tokenText == "latest" {
                let latest = DeltaToken(epoch: state.deltaEpoch, position: state.log.count, initial: false)
                return GraphJSON.text([
                    "value": [Any](), "@odata.deltaLink": link + "?token=" + latest.text,
                ])
            } else if let tokenText {
                guard let parsed = DeltaToken(tokenText) else {
                    throw GraphFailure(
                        status: 400, code: "invalidRequest", message: "The delta token is not valid: \(tokenText)")
                }
                guard parsed.epoch == state.deltaEpoch else { throw .resyncRequired(location: link) }
                token = parsed
            }
            let (entries, reached) = state.deltaPage(
                scope: scope.id, after: token.position, limit: size, initial: token.initial)
            var values: [Any] = []
            values.reserveCapacity(entries.count)
            for entry in entries {
                switch entry {
                case .item(let item):
                    let object = state.json(of: item, withPath: false) { self.downloadURL(base: base, version: $0) }
                    values.append(GraphJSON.select(object, selection))
                case .deleted(let tombstone):
                    values.append(state.json(ofDeleted: tombstone))
                }
            }
            var page: [String: Any] = ["value": values]
            if reached < state.log.count {
                let next = DeltaToken(epoch: state.deltaEpoch, position: reached, initial: token.initial)
                page["@odata.nextLink"] = link + "?$top=\(size)&token=" + next.text
            } else {
                let done = DeltaToken(epoch: state.deltaEpoch, position: reached, initial: false)
                page["@odata.deltaLink"] = link + "?token=" + done.text
            }
            return GraphJSON.text(page)
        }
        return Response.json(text: text)
    }
}
