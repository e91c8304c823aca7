// A program that imports only the core module, `Stratus`. `Scripts/check-core-links.sh` builds
// it and checks that it links no libcrypto (nor libcurl): the core names hash algorithms but
// computes none, so an app that only defines services pulls in no OpenSSL.
import Stratus

let quickXor = HashAlgorithm(rawValue: "quickXorHash")
let hash = ContentHash(algorithm: .sha256, value: "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855")
let registry = ServiceRegistry(backends: [])
let key = BackendContext.ResourceKey<String>("greeting")
let greeting = try registry.context.resource(key, make: { "core only" })
await registry.shutdown()
print("\(greeting): \(hash), \(quickXor), backends: \(registry.typeNames.count)")
