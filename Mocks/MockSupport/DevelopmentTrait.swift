// The mock kit is built on Hummingbird, which the package resolves only with its Development trait
// (an app that uses the library products never fetches it). Without the trait its imports fail;
// this error says why, first.
#if !Development
    #error("The mocks and the tests build with the package's Development trait: swift build --traits Development")
#endif
