import Stratus
import StratusDropbox
import StratusLocal

/// The backends the save-sync example can use by type name.
enum Backends {
    static let registry = ServiceRegistry(backends: [LocalBackend.self, DropboxBackend.self])
}
