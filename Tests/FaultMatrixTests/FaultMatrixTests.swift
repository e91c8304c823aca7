import FaultMatrix
import Testing

/// The fault matrix against the Dropbox and Drive mocks: each cell injects one real fault and
/// checks the end state (see ``FaultMatrix``). Slow by design: the cells run one at a time, so
/// a loaded machine does not trip the client's 2-second stall timeout, and each stall cell
/// waits that timeout out; about two minutes in all.
@Suite("Fault matrix (slow: about two minutes)", .serialized)
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
}
