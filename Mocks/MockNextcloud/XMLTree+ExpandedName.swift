import StratusAdapterKit

extension XMLTree {
    /// The element's expanded name in Clark notation, `{namespace}local-name`: how the mock keys
    /// properties, since a dead property is named by its namespace and local name together.
    var expandedName: String { "{\(namespace)}\(name)" }
}
