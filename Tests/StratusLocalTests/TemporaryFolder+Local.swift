import Foundation
import StratusLocal
import StratusTestSupport

extension TemporaryFolder {
    /// The store root inside the folder.
    var root: URL { url.appending(path: "root", directoryHint: .isDirectory) }

    /// Opens a local service on the folder's root.
    func service(maximumVersions: Int = 100, changePageSize: Int = 500) throws -> LocalService {
        try LocalService(root: root, maximumVersions: maximumVersions, changePageSize: changePageSize)
    }
}
