import FaultMatrix
import Testing

/// The fault matrix against the Dropbox, Drive, Nextcloud and OneDrive mocks: each cell injects
/// one real fault and checks the end state (see ``FaultMatrix``). Slow by design: the cells run
/// one at a time, so a loaded machine does not trip the client's 2-second stall timeout, and
/// each stall cell waits that timeout out; a few minutes in all.
@Suite("Fault matrix (slow: a few minutes)", .serialized)
struct FaultMatrixTests {
    @Test(arguments: FaultMatrix.cells(provider: "dropbox"))
    func dropbox(_ cell: MatrixCell) async {
        let result = await FaultMatrix.run(cell, provider: DropboxMatrixProvider())
        #expect(result.passed, "\(cell): \(result.failure ?? "")")
    }

    @Test(arguments: FaultMatrix.cells(provider: "drive"))
    func drive(_ cell: MatrixCell) async {
        let result = await FaultMatrix.run(cell, provider: DriveMatrixProvider())
        #expect(result.passed, "\(cell): \(result.failure ?? "")")
    }

    @Test(arguments: FaultMatrix.cells(provider: "nextcloud"))
    func nextcloud(_ cell: MatrixCell) async {
        let result = await FaultMatrix.run(cell, provider: NextcloudMatrixProvider())
        #expect(result.passed, "\(cell): \(result.failure ?? "")")
    }

    @Test(arguments: FaultMatrix.cells(provider: "onedrive"))
    func onedrive(_ cell: MatrixCell) async {
        let result = await FaultMatrix.run(cell, provider: OneDriveMatrixProvider())
        #expect(result.passed, "\(cell): \(result.failure ?? "")")
    }
}
