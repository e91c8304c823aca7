/// Every node by id, with the indexes that keep `files.list` by parent or by name, creates and
/// subtree walks independent of how many files the mock holds: child ids per parent and ids
/// per (parent, name). Every write through the subscript keeps them current and bumps
/// ``generation``, which cached listings compare against.
struct NodeTable: Sendable {
    private var byID: [String: DriveNode] = [:]
    private var childrenByParent: [String: Set<String>] = [:]
    private var idsByParentAndName: [ParentAndName: Set<String>] = [:]
    /// Changes on every write; equal generations mean nothing was written in between.
    private(set) var generation = 0

    private struct ParentAndName: Hashable, Sendable {
        var parent: String
        var name: String
    }

    /// The node with an id; setting `nil` removes it.
    subscript(id: String) -> DriveNode? {
        get { byID[id] }
        set {
            let old = byID[id]
            if old?.parents != newValue?.parents || old?.name != newValue?.name {
                if let old { unindex(old) }
                if let newValue { index(newValue) }
            }
            byID[id] = newValue
            generation &+= 1
        }
    }

    /// Every node, in no particular order.
    var values: Dictionary<String, DriveNode>.Values { byID.values }

    /// The ids of the nodes that have `parent` among their parents.
    func children(of parent: String) -> Set<String> {
        childrenByParent[parent] ?? []
    }

    /// The ids of the nodes named `name` (exactly) in `parent`.
    func named(_ name: String, in parent: String) -> Set<String> {
        idsByParentAndName[ParentAndName(parent: parent, name: name)] ?? []
    }

    private mutating func index(_ node: DriveNode) {
        for parent in node.parents {
            childrenByParent[parent, default: []].insert(node.id)
            idsByParentAndName[ParentAndName(parent: parent, name: node.name), default: []].insert(node.id)
        }
    }

    private mutating func unindex(_ node: DriveNode) {
        for parent in node.parents {
            childrenByParent[parent]?.remove(node.id)
            if childrenByParent[parent]?.isEmpty == true { childrenByParent[parent] = nil }
            let key = ParentAndName(parent: parent, name: node.name)
            idsByParentAndName[key]?.remove(node.id)
            if idsByParentAndName[key]?.isEmpty == true { idsByParentAndName[key] = nil }
        }
    }
}
