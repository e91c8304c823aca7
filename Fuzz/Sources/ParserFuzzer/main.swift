import CFuzzerDriver
import Foundation

// libFuzzer drives `LLVMFuzzerTestOneInput` with the flags on the command line (see
// Fuzz/run-fuzz.sh).
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, count in fuzzerTestOneInput(data, count) })
