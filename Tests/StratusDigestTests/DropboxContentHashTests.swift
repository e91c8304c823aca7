import Stratus
import StratusDigest
import Testing

@Suite("Dropbox content hash")
struct DropboxContentHashTests {
    @Test("The block size is 4 MiB")
    func blockSize() {
        #expect(DropboxContentHash.blockSize == 4_194_304)
    }

    @Test("Empty content hashes to the SHA-256 of nothing")
    func emptyContent() {
        let hash = DropboxContentHash()
        #expect(hash.finalizeHex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// A piece that ends exactly on the block boundary, then single bytes across it, must give the
    /// same hash as one piece (for both one and two blocks after the boundary).
    @Test("Pieces ending on and straddling the block boundary", arguments: [4_194_304, 4_194_305, 4_194_400])
    func blockBoundary(byteCount: Int) throws {
        let content = TestInput.pattern(count: byteCount)
        let boundary = DropboxContentHash.blockSize
        let hash = DropboxContentHash()
        hash.update(content[0..<(boundary - 3)])
        for index in (boundary - 3)..<min(boundary + 3, byteCount) {
            hash.update(content[index...index])
        }
        if byteCount > boundary + 3 {
            hash.update(content[(boundary + 3)...])
        }
        #expect(try hash.finalize() == Digest.compute(.dropboxContentHash, over: content))
    }

    @Test("A block-sized piece after a partial block straddles the boundary")
    func blockSizedPieceStraddlesBoundary() {
        // Expected from hashlib (see PatternVector): N = 4194305.
        let content = TestInput.pattern(count: 4_194_305)
        let hash = DropboxContentHash()
        hash.update(content[0..<1])
        hash.update(content[1...])
        #expect(hash.finalizeHex() == "4a6cc0a344febaa07772e7c974834b2fb1d24594d4ba15f27c97a54699709f44")
    }
}
